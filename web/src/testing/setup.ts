import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach } from 'vitest';
import { resetConfirms } from '@/components/ui/confirm';
import { closePaymentComplete, closeSubscriptionOverlay } from '@/features/subscriptions';
import { resetAnalytics } from '@/lib/analytics';
import { resetAnalyticsStart } from '@/lib/analytics-start';
import { clearToasts } from '@/lib/toast';
import { mockApi } from './api-mock';
import { installDialogShim, resetDialogShim } from './dialog-shim';

installDialogShim();

// findBy*/waitFor give up after 5 s, not 1 s: the first render of a route imports its
// lazy page, which is slow on a busy machine (CI shares its cores). Nothing waits longer
// than it has to; the limit only decides when a missing element counts as missing.
configure({ asyncUtilTimeout: 5000 });

// No test reaches the network: unmocked calls answer 404.
beforeEach(() => {
  mockApi();
});

afterEach(() => {
  cleanup();
  window.localStorage.clear();
  window.sessionStorage.clear(); // a send kept through checkout (features/requests/pending-send.ts)
  window.dispatchEvent(new StorageEvent('storage', { key: null }));
  clearToasts();
  resetConfirms();
  // Popups kept in module stores would otherwise open in the next test.
  closeSubscriptionOverlay();
  closePaymentComplete();
  resetDialogShim();
  resetAnalytics();
  resetAnalyticsStart();
});

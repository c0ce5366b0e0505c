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

// findBy*/waitFor give up after 15 s (Playwright's expect limit too), not 1 s: the first
// render of a lazy page or popup makes Vite transform its modules inside the wait, and with
// make test's checks two at a time on a loaded machine that took over 5 s (TipsTour's welcome,
// CollabIdeasPage, PaymentProcessing at load 20-30). Nothing waits longer than it has to;
// the limit only decides when a missing element counts as missing.
configure({ asyncUtilTimeout: 15_000 });

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

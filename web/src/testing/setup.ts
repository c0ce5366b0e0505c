import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach, beforeEach } from 'vitest';
import { resetConfirms } from '@/components/ui/confirm';
import { resetAnalytics } from '@/lib/analytics';
import { resetAnalyticsStart } from '@/lib/analytics-start';
import { clearToasts } from '@/lib/toast';
import { mockApi } from './api-mock';

// No test reaches the network: unmocked calls answer 404.
beforeEach(() => {
  mockApi();
});

afterEach(() => {
  cleanup();
  window.localStorage.clear();
  window.dispatchEvent(new StorageEvent('storage', { key: null }));
  clearToasts();
  resetConfirms();
  resetAnalytics();
  resetAnalyticsStart();
});

import { useEffect, useState } from 'react';
// Import from 'react-router' only (not 'react-router/dom'): under Vitest the two entry
// points resolve to different builds with separate router contexts.
import { RouterProvider } from 'react-router';
import { AppProvider } from './provider';
import { createAppRouter } from './router';

export function App() {
  const [router] = useState(createAppRouter);
  // After the first render, never before it: reads /config.json and, on deployed stacks,
  // loads the aws-amplify analytics sink in its own chunk. The starter is a chunk of its own
  // too: the first screen does not wait for it (BENCH web_initial_js_gz_kb).
  useEffect(() => {
    void import('@/lib/analytics-start').then(({ startAnalytics }) => startAnalytics());
  }, []);
  return (
    <AppProvider>
      <RouterProvider router={router} />
    </AppProvider>
  );
}

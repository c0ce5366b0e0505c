import { useState } from 'react';
// Import from 'react-router' only (not 'react-router/dom'): under Vitest the two entry
// points resolve to different builds with separate router contexts.
import { RouterProvider } from 'react-router';
import { AppProvider } from './provider';
import { createAppRouter } from './router';

export function App() {
  const [router] = useState(createAppRouter);
  return (
    <AppProvider>
      <RouterProvider router={router} />
    </AppProvider>
  );
}

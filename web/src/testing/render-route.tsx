import { render } from '@testing-library/react';
import { StrictMode, type ReactNode } from 'react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, parsePath, RouterProvider } from 'react-router';
import { onTestFinished } from 'vitest';
import { AppProvider } from '@/app/provider';
import { buildRoutes, connectRouter } from '@/app/router';

export interface RenderRouteOptions {
  /** Router state for the first entry (e.g. { email } for /setup-password-direct). */
  readonly state?: unknown;
  /** Passed to userEvent.setup (e.g. advanceTimers with fake timers). */
  readonly user?: Parameters<typeof userEvent.setup>[0];
  /** Render inside <StrictMode>, as the app does (effects run twice in development). */
  readonly strict?: boolean;
}

/** Renders the real route table at `path` in memory, with the app's providers; returns the router to inspect location. */
export function renderRoute(path: string, options: RenderRouteOptions = {}) {
  const router = createMemoryRouter(buildRoutes(), {
    initialEntries: [{ ...parsePath(path), state: options.state }],
  });
  const disconnect = connectRouter(router);
  onTestFinished(disconnect);
  const user = userEvent.setup(options.user);
  // A fresh query cache for every render, as a page load has.
  const app = (
    <AppProvider>
      <RouterProvider router={router} />
    </AppProvider>
  );
  const view = render(options.strict ? <StrictMode>{app}</StrictMode> : app);
  return { router, user, ...view };
}

/** Renders `ui` inside the app's providers (a fresh query cache), without the router. */
export function renderWithProviders(ui: ReactNode) {
  return render(<AppProvider>{ui}</AppProvider>);
}

/** A fetch Response carrying JSON. */
export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

import { screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/testing/render-route';
import { StopWelcomeEmailsPage } from './StopWelcomeEmailsPage';

function renderAt(path: string) {
  return renderWithProviders(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/stop-welcome-emails/:email" element={<StopWelcomeEmailsPage />} />
      </Routes>
    </MemoryRouter>,
  );
}

describe('StopWelcomeEmailsPage', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('calls the server once for the address in the link and shows its answer', async () => {
    const fetchMock = vi.fn(() =>
      Promise.resolve(new Response(JSON.stringify({ message: "You won't get any more welcome emails." }), { status: 200 })),
    );
    vi.stubGlobal('fetch', fetchMock);
    renderAt('/stop-welcome-emails/ana%40oat.co');
    expect(await screen.findByText("You won't get any more welcome emails.")).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(String((fetchMock.mock.calls[0] as unknown[])[0])).toContain('users/stop-welcome-emails/ana%40oat.co');
  });

  it("shows the server's error when the link is for someone else", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() =>
        Promise.resolve(new Response(JSON.stringify({ error: 'You can only change your own email settings' }), { status: 400 })),
      ),
    );
    renderAt('/stop-welcome-emails/bob%40x.co');
    expect(await screen.findByText('You can only change your own email settings')).toBeInTheDocument();
  });
});

import { render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi } from '@/testing/api-mock';
import { App } from './App';

describe('App', () => {
  it('boots the browser router and sends a signed-out visitor to login', async () => {
    window.history.replaceState(null, '', '/');
    render(<App />);
    expect(await screen.findByRole('heading', { name: 'Sign in to Tandem' })).toBeInTheDocument();
    await waitFor(() => {
      expect(window.location.pathname + window.location.search).toBe('/login/?redirect=/');
    });
  });

  it('reads /config.json once the first render is done (a 404 locally changes nothing)', async () => {
    window.history.replaceState(null, '', '/login/');
    const api = mockApi();
    render(<App />);
    expect(await screen.findByRole('heading', { name: 'Sign in to Tandem' })).toBeInTheDocument();
    await waitFor(() => {
      expect(api.calls('GET /config.json')).toHaveLength(1);
    });
  });
});

import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { getSession } from '@/lib/session';
import { jsonResponse, renderRoute } from '@/testing/render-route';

const fetchMock = vi.fn<typeof fetch>();

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});

async function openLogin(path = '/login/') {
  const view = renderRoute(path);
  await screen.findByRole('heading', { name: 'Sign in to Tandem' });
  return view;
}

describe('LoginPage', () => {
  it('renders a labelled form with its links and title', async () => {
    await openLogin();
    expect(screen.getByLabelText('Email')).toHaveAttribute('type', 'email');
    expect(screen.getByLabelText('Password')).toHaveAttribute('type', 'password');
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Forgot password?' })).toHaveAttribute(
      'href',
      '/forgot-password',
    );
    expect(screen.getByRole('link', { name: 'Create an account' })).toHaveAttribute(
      'href',
      '/create-account',
    );
    await waitFor(() => {
      expect(document.title).toBe('Tandem Hub: Login');
    });
  });

  it('requires both fields', async () => {
    const { user } = await openLogin();
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(screen.getAllByText('This field is required')).toHaveLength(2);
    expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Email')).toHaveFocus();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('rejects an invalid email', async () => {
    const { user } = await openLogin();
    await user.type(screen.getByLabelText('Email'), 'not-an-email');
    await user.type(screen.getByLabelText('Password'), 'secret');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(screen.getByText('Invalid email')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveAccessibleDescription('Invalid email');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('clears an error 500 ms after the value is fixed', async () => {
    const { user } = await openLogin();
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await user.type(screen.getByLabelText('Email'), 'ana@brand.com');
    expect(screen.getAllByText('This field is required')).toHaveLength(2);
    await waitFor(() => {
      expect(screen.getAllByText('This field is required')).toHaveLength(1);
    });
  });

  it("shows the server's error in an alert", async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse({ error: 'Wrong email or password' }, 401));
    const { user } = await openLogin();
    await user.type(screen.getByLabelText('Email'), 'ana@brand.com');
    await user.type(screen.getByLabelText('Password'), 'wrong-password');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Wrong email or password');
    expect(getSession()).toBeNull();
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeEnabled();
  });

  it('stores the tokens and follows the redirect query', async () => {
    fetchMock.mockResolvedValueOnce(
      jsonResponse({
        access_token: 'access-xyz',
        refresh_token: 'refresh-xyz',
        uid: 'u7',
        account: 'acc7',
        initials: 'AB',
        name: 'Ana Brand',
        firstName: 'Ana',
        sessionInfo: { access: 'admin' },
      }),
    );
    const { user, router } = await openLogin('/login/?redirect=/');
    await user.type(screen.getByLabelText('Email'), ' ana@brand.com ');
    await user.type(screen.getByLabelText('Password'), 'Tandem2025');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    expect(await screen.findByRole('heading', { name: 'Welcome back, Ana' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');

    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/api/users/login');
    expect(init?.body).toBe(JSON.stringify({ email: 'ana@brand.com', password: 'Tandem2025' }));
    expect(getSession()).toEqual({
      accessToken: 'access-xyz',
      refreshToken: 'refresh-xyz',
      uid: 'u7',
      account: 'acc7',
      initials: 'AB',
      name: 'Ana Brand',
      firstName: 'Ana',
      sessionInfo: { access: 'admin' },
    });
    expect(JSON.parse(window.localStorage.getItem('tandem.session') ?? 'null')).toMatchObject({
      accessToken: 'access-xyz',
      refreshToken: 'refresh-xyz',
    });
  });

  it('selects the brand the answer names, so the first page asks for its lists without waiting for the dashboard', async () => {
    const dashboardNeverAnswers = new Promise<Response>(() => undefined); // the dashboard is slow
    fetchMock.mockImplementation((input) => {
      const url = input as string; // the app's api client calls fetch with a path
      if (url === '/api/users/login') {
        return Promise.resolve(
          jsonResponse({
            access_token: 'a', refresh_token: 'r', uid: 'u', account: 'c', initials: 'A', name: 'A', firstName: 'A',
            sessionInfo: { access: 'member', brandId: 42 },
          }),
        );
      }
      if (url.includes('/api/dashboard')) return dashboardNeverAnswers;
      return Promise.resolve(jsonResponse({ matches: [], showingBrandNames: true }));
    });
    const { user } = await openLogin('/login/?redirect=/matches/potentials');
    await user.type(screen.getByLabelText('Email'), 'ana@brand.com');
    await user.type(screen.getByLabelText('Password'), 'Tandem2025');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    await waitFor(() => {
      const lists = fetchMock.mock.calls.filter(([url]) => (url as string).startsWith('/api/matches?list='));
      expect(lists.map(([url]) => url as string).sort()).toEqual(['/api/matches?list=potentials', '/api/matches?list=saved']);
      for (const [, init] of lists) expect(new Headers(init?.headers).get('X-Brand-Id')).toBe('42');
    });
    expect(window.localStorage.getItem('tandem.selectedBrand')).toBe('"42"');
  });

  it('ignores a redirect query that leaves the site', async () => {
    fetchMock.mockResolvedValueOnce(
      jsonResponse({ access_token: 'a', refresh_token: 'r', uid: 'u', account: 'c', initials: 'A', name: 'A', firstName: 'A' }),
    );
    const { user, router } = await openLogin('/login/?redirect=//evil.example/');
    await user.type(screen.getByLabelText('Email'), 'ana@brand.com');
    await user.type(screen.getByLabelText('Password'), 'Tandem2025');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/');
    });
  });
});

describe('LoginPage server answers', () => {
  it('sends an account without a password to /setup-password-direct with the email', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse({ error: 'No password set' }, 400));
    const { user, router } = await openLogin();
    await user.type(screen.getByLabelText('Email'), 'ana@brand.com');
    await user.type(screen.getByLabelText('Password'), 'whatever');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(
      await screen.findByRole('heading', { name: "Your account doesn't have a password yet" }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/setup-password-direct');
    expect(screen.getByLabelText('Email')).toHaveValue('ana@brand.com');
  });

  it('shows the rate-limit message', async () => {
    fetchMock.mockResolvedValueOnce(
      jsonResponse({ error: 'Too many sign-in attempts. Please wait 15 minutes.' }, 429),
    );
    const { user } = await openLogin();
    await user.type(screen.getByLabelText('Email'), 'ana@brand.com');
    await user.type(screen.getByLabelText('Password'), 'whatever');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Too many sign-in attempts. Please wait 15 minutes.',
    );
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { mockApi, shellRoutes } from '@/testing/api-mock';
import { renderRoute } from '@/testing/render-route';
import { signIn, TEST_SESSION } from '@/testing/session';

const COLLAB = { ideas: [], benefits: {}, efforts: { minimal: 'Minimal', some: 'Some', maximum: 'Maximum' }, total: 26 };

function open(check: Record<string, unknown>, { admin = false } = {}) {
  signIn(admin ? { ...TEST_SESSION, sessionInfo: { access: 'admin' } } : TEST_SESSION);
  const api = mockApi({
    ...shellRoutes({}, check),
    'GET collab': COLLAB,
    'POST users/action/instructions': { ok: true },
    'POST users/action/welcome': { ok: true },
  });
  return { api, ...renderRoute('/inspiration') };
}

function setWidth(width: number) {
  Object.defineProperty(window, 'innerWidth', { configurable: true, writable: true, value: width });
}

afterEach(() => {
  setWidth(1024);
});

describe('TipsTour', () => {
  it('walks a member through the four desktop tips and records the finish once', async () => {
    const { user, api } = open({ showInstructions: true });
    const tour = within(await screen.findByRole('dialog', { name: 'Welcome to Tandem' }));
    expect(tour.getByText('Tip 1 of 4')).toBeInTheDocument();
    expect(tour.queryByRole('button', { name: 'Back' })).not.toBeInTheDocument();
    const titles = ['Welcome to Tandem'];
    for (let step = 0; step < 3; step += 1) {
      await user.click(screen.getByRole('button', { name: 'Next' }));
      titles.push(screen.getByRole('dialog').querySelector('h2')?.textContent ?? '');
    }
    expect(titles).toEqual([
      'Welcome to Tandem',
      'Tell other brands about yours',
      'Collaboration opportunities',
      'Credits and your plan',
    ]);
    expect(screen.getByText('Tip 4 of 4')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(screen.getByRole('dialog', { name: 'Collaboration opportunities' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('button', { name: 'Finish' }));
    await waitFor(() => {
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    });
    expect(api.calls('POST users/action/instructions')).toHaveLength(1);
  });

  it('points a member without credits (no credits badge) at the account menu for the credits tip', async () => {
    signIn(TEST_SESSION);
    mockApi({
      ...shellRoutes({ credits: { available: 0, total: 0, active: false, hasSubscription: false } }, { showInstructions: true }),
      'GET collab': COLLAB,
      'POST users/action/instructions': { ok: true },
    });
    const { user } = renderRoute('/inspiration');
    await screen.findByRole('dialog', { name: 'Welcome to Tandem' });
    expect(screen.queryByRole('button', { name: /credits$/ })).not.toBeInTheDocument();
    for (let step = 0; step < 3; step += 1) await user.click(screen.getByRole('button', { name: 'Next' }));
    const tip = screen.getByRole('dialog', { name: 'Credits and your plan' });
    expect(within(tip).queryByText(/Your credits are shown here/)).not.toBeInTheDocument();
    expect(within(tip).getByText(/Choose a plan under Billing, in your account menu here/)).toBeInTheDocument();
  });

  it('points a member with credits at their credits badge', async () => {
    signIn(TEST_SESSION);
    mockApi({
      ...shellRoutes({ credits: { available: 5, total: 6, active: true, hasSubscription: true } }, { showInstructions: true }),
      'GET collab': COLLAB,
      'POST users/action/instructions': { ok: true },
    });
    const { user } = renderRoute('/inspiration');
    await screen.findByRole('dialog', { name: 'Welcome to Tandem' });
    expect(await screen.findByRole('button', { name: /credits$/ })).toBeInTheDocument();
    for (let step = 0; step < 3; step += 1) await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(within(screen.getByRole('dialog', { name: 'Credits and your plan' })).getByText(/Your credits are shown here/)).toBeInTheDocument();
  });

  it('adds the mobile-menu tip at 767 px or less', async () => {
    setWidth(375);
    const { user } = open({ showInstructions: true });
    expect(await screen.findByText('Tip 1 of 5')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByRole('dialog', { name: 'Your menu' })).toBeInTheDocument();
  });

  it('can be skipped, and is then recorded as done', async () => {
    const { user, api } = open({ showInstructions: true });
    await user.click(await screen.findByRole('button', { name: 'Skip tour' }));
    await waitFor(() => {
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    });
    expect(api.calls('POST users/action/instructions')).toHaveLength(1);
  });

  it('closes with Esc', async () => {
    const { user, api } = open({ showInstructions: true });
    await screen.findByRole('dialog', { name: 'Welcome to Tandem' });
    await user.keyboard('{Escape}');
    await waitFor(() => {
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    });
    expect(api.calls('POST users/action/instructions')).toHaveLength(1);
  });

  it.each([
    ['an admin', { showInstructions: true }, true],
    ['a member who is done with it', { showInstructions: false }, false],
  ])('is not shown to %s', async (_who, check, admin) => {
    // An unconfirmed address puts a notice in the message bar once the login check is in.
    open({ ...check, emailConfirmed: false }, { admin });
    expect(await screen.findByRole('button', { name: 'Resend confirmation email' })).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('waits for the welcome popup to be finished first', async () => {
    const { user } = open({ showInstructions: true, showWelcome: true });
    const welcome = within(await screen.findByRole('dialog', { name: 'Welcome' }));
    expect(screen.queryByRole('dialog', { name: 'Welcome to Tandem' })).not.toBeInTheDocument();
    await user.click(welcome.getByRole('button', { name: 'Close' }));
    expect(await screen.findByRole('dialog', { name: 'Welcome to Tandem' })).toBeInTheDocument();
  });
});

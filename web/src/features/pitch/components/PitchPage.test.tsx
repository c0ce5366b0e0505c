import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { leaveApp } from '@/lib/leave-app';
import { mockApi, shellRoutes, type MockAnswer } from '@/testing/api-mock';
import { jsonResponse, renderRoute } from '@/testing/render-route';
import { signIn, TEST_SESSION } from '@/testing/session';
import { feature, NO_FEATURE_DONE, OPTIONS, OWN } from '../test-fixtures';

vi.mock('@/lib/leave-app', () => ({ leaveApp: vi.fn() }));

const CREDITS_6 = { available: 6, total: 6, totalMain: 6, totalAddOns: 0, active: true, hasSubscription: true };
const CREDITS_3 = { ...CREDITS_6, available: 3 };

function open(path: string, routes: Record<string, MockAnswer>, session = TEST_SESSION) {
  signIn(session);
  const api = mockApi({
    ...shellRoutes({ credits: CREDITS_6 }),
    'GET pitch/mine': { features: [], featureDone: NO_FEATURE_DONE, options: OPTIONS },
    ...routes,
  });
  return { ...renderRoute(path), api };
}

describe('Pitch Area list', () => {
  it('shows live features newest first, masks hidden names, marks the own feature and filters', async () => {
    const { user, api } = open('/pitch', {
      'GET pitch': {
        features: [
          feature({ id: 'f2', title: 'Our own box', ...OWN }),
          feature({ brand: { id: 9, name: 'A home brand', logoUrl: null, category: 'home' }, nameVisible: false }),
        ],
        cursor: null,
        options: OPTIONS,
      },
      'GET pitch?kind=events': { features: [], cursor: null, options: OPTIONS },
    });
    const list = within(await screen.findByRole('list', { name: 'Live features' }));
    const [own, theirs] = list.getAllByRole('article').map((card) => within(card));
    if (!own || !theirs) throw new Error('two cards expected');
    expect(own.getByText('Your feature')).toBeInTheDocument();
    expect(own.getByRole('link', { name: /View your feature\s?: Our own box/ })).toHaveAttribute('href', '/pitch/f2');
    expect(theirs.getByText('A home brand')).toHaveClass('brand-name--masked');
    expect(theirs.getByRole('link', { name: /View and pitch\s?: Winter gift box partners/ })).toHaveAttribute('href', '/pitch/f1');
    expect(screen.getByRole('link', { name: 'Feature your brand' })).toHaveAttribute('href', '/pitch/new');

    await user.selectOptions(screen.getByLabelText('Collaboration'), 'events');
    expect(await screen.findByText('No features match these filters')).toBeInTheDocument();
    expect(api.calls('GET pitch?kind=events')).toHaveLength(1);
  });
});

/** The levels of the page's headings, in order (what a screen reader's heading list shows). */
function headingLevels(): number[] {
  return Array.from(document.querySelectorAll('h1, h2, h3, h4, h5, h6')).map((h) => Number(h.tagName[1]));
}

describe('Pitch Area headings', () => {
  it('never skips a level on /pitch with the member\'s own live feature', async () => {
    open('/pitch', {
      'GET pitch/mine': { features: [feature({ id: 'f2', ...OWN, status: 'live' })], featureDone: NO_FEATURE_DONE, options: OPTIONS },
      'GET pitch': { features: [feature({ id: 'f2', title: 'Our own box', ...OWN }), feature()], cursor: null, options: OPTIONS },
    });
    await screen.findByRole('list', { name: 'Live features' });
    await screen.findByText(/Your feature: /);
    const levels = headingLevels();
    expect(levels[0]).toBe(1);
    levels.slice(1).forEach((level, index) => {
      expect(level - (levels[index] ?? 1)).toBeLessThanOrEqual(1);
    });
  });

  it.each(['/pitch/gone1', '/pitch/jump/gone1'])('%s of a feature that is not there has a level-1 heading', async (path) => {
    open(path, { 'GET pitch/gone1': jsonResponse({ error: 'Not found' }, 404) });
    expect(await screen.findByRole('heading', { level: 1, name: "This feature isn't in the Pitch Area" })).toBeInTheDocument();
  });
});

describe('Feature your brand', () => {
  async function fillForm(user: ReturnType<typeof open>['user']) {
    await user.type(await screen.findByLabelText('Headline'), 'Winter gift box partners');
    await user.type(screen.getByLabelText('What you offer'), 'A spot in our box');
    await user.type(screen.getByLabelText("What you're looking for"), 'Food brands');
    await user.click(screen.getByLabelText('bundles'));
    await user.click(screen.getByLabelText('6 months'));
  }

  it('shows the cost, needs the terms accepted, then spends 3 credits and opens the feature', async () => {
    const { user, api } = open('/pitch/new', {
      'POST pitch': jsonResponse({ feature: feature({ id: 'f9', status: 'pending', ...OWN }), credits: CREDITS_3 }, 201),
      'GET pitch/f9': { feature: feature({ id: 'f9', status: 'pending', ...OWN, canPitch: false, pitch: null }), options: OPTIONS },
    });
    expect(await screen.findByText('Featuring costs 3 credits. Pitching to a feature costs 1 credit.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(screen.getAllByText('This field is required').length).toBeGreaterThan(0);
    expect(screen.getByText('Choose at least one kind of collaboration')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    await fillForm(user);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    const terms = within(await screen.findByRole('dialog', { name: 'Feature terms' }));
    expect(terms.getByText('It can be ended early only by written consent of both parties, with no refund.')).toBeInTheDocument();
    await user.click(terms.getByRole('button', { name: 'Accept and feature (3 credits)' }));
    expect(terms.getByText('Please accept the feature terms to continue')).toBeInTheDocument();
    expect(api.calls('POST pitch')).toHaveLength(0);

    await user.click(terms.getByLabelText('I accept the feature terms'));
    await user.click(terms.getByRole('button', { name: 'Accept and feature (3 credits)' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Winter gift box partners' })).toBeInTheDocument();
    expect(api.calls('POST pitch')[0]?.body).toEqual({
      title: 'Winter gift box partners',
      offer: 'A spot in our box',
      lookingFor: 'Food brands',
      collabKinds: ['bundles'],
      audience: '',
      closingDate: null,
      months: 6,
      acceptTerms: true,
    });
    expect(screen.getByText('Feature sent for approval')).toBeInTheDocument();
    expect(screen.getByText('Pending approval')).toBeInTheDocument();
  });

  it('opens the product overlay when out of credits', async () => {
    const { user } = open('/pitch/new', {
      'POST pitch': jsonResponse({ error: "You're out of credits. Buy more to continue.", code: 'out_of_credits' }, 402),
    });
    await fillForm(user);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    const terms = within(await screen.findByRole('dialog', { name: 'Feature terms' }));
    await user.click(terms.getByLabelText('I accept the feature terms'));
    await user.click(terms.getByRole('button', { name: 'Accept and feature (3 credits)' }));
    expect(await screen.findByRole('dialog', { name: 'Buy more to continue' })).toBeInTheDocument();
  });

  it('sends a feature-only member to the checkout for the feature product', async () => {
    const { user, api } = open(
      '/pitch/new',
      {
        'POST pitch': jsonResponse({ feature: feature({ id: 'f9', status: 'pending', ...OWN, payWith: 'product', paid: false }), credits: CREDITS_6 }, 201),
        'POST pitch/f9/checkout': { url: 'http://127.0.0.1/checkout/cs_1' },
      },
      { ...TEST_SESSION, sessionInfo: { access: 'feature' } },
    );
    expect(await screen.findByText(/Your feature is a paid product/)).toBeInTheDocument();
    await fillForm(user);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    const terms = within(await screen.findByRole('dialog', { name: 'Feature terms' }));
    await user.click(terms.getByLabelText('I accept the feature terms'));
    await user.click(terms.getByRole('button', { name: 'Accept and pay' }));
    await waitFor(() => {
      expect(leaveApp).toHaveBeenCalledWith('http://127.0.0.1/checkout/cs_1');
    });
    expect(api.calls('POST pitch/f9/checkout')).toHaveLength(1);
  });

  it('says so when the brand already has an open feature', async () => {
    open('/pitch/new', { 'GET pitch/mine': { features: [feature({ ...OWN })], featureDone: NO_FEATURE_DONE, options: OPTIONS } });
    expect(await screen.findByText('You already have a feature: Live')).toBeInTheDocument();
    expect(screen.queryByLabelText('Headline')).not.toBeInTheDocument();
  });
});

describe('A feature', () => {
  it('pitches for 1 credit and then shows the pitch was sent', async () => {
    let pitched = false;
    const { user, api } = open('/pitch/f1', {
      'GET pitch/f1': () => ({
        feature: feature({ canPitch: !pitched, pitch: pitched ? { id: 'r1', status: 'pending', createdAt: '2026-11-23T08:00:00Z' } : null }),
        options: OPTIONS,
      }),
      'POST pitch/f1/pitch': () => {
        pitched = true;
        return jsonResponse({ request: { id: 'r1' }, credits: { ...CREDITS_6, available: 5 } }, 201);
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Pitch' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Pitch to Wild Fern Candles' }));
    await user.click(dialog.getByRole('button', { name: 'Send pitch (1 credit)' }));
    expect(dialog.getByText('This field is required')).toBeInTheDocument();
    await user.type(dialog.getByLabelText('Your pitch'), 'Our candles in your box?');
    await user.click(dialog.getByRole('button', { name: 'Send pitch (1 credit)' }));
    expect(await screen.findByText("You've pitched to this feature")).toBeInTheDocument();
    expect(api.calls('POST pitch/f1/pitch')[0]?.body).toEqual({ message: 'Our candles in your box?' });
    expect(await screen.findByRole('button', { name: '5/6 credits' })).toBeInTheDocument();
  });

  it('offers a suspended brand no Pitch, as it offers no Send request, and says why', async () => {
    signIn();
    mockApi({
      ...shellRoutes({ credits: CREDITS_6, dashboard: { brandId: 1, brandName: 'Oat & Co', suspended: true } }),
      'GET pitch/mine': { features: [], featureDone: NO_FEATURE_DONE, options: OPTIONS },
      'GET pitch/f1': { feature: feature({ canPitch: true, pitch: null }), options: OPTIONS },
    });
    renderRoute('/pitch/f1');
    expect(await screen.findByText("Your brand is suspended, so it can't send pitches.")).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Pitch' })).not.toBeInTheDocument();
  });

  it('opens the product overlay when the pitch finds no credit', async () => {
    const { user } = open('/pitch/f1', {
      'GET pitch/f1': { feature: feature({ canPitch: true, pitch: null }), options: OPTIONS },
      'POST pitch/f1/pitch': jsonResponse({ error: "You're out of credits. Buy more to continue.", code: 'out_of_credits' }, 402),
    });
    await user.click(await screen.findByRole('button', { name: 'Pitch' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Pitch to Wild Fern Candles' }));
    await user.type(dialog.getByLabelText('Your pitch'), 'Hello');
    await user.click(dialog.getByRole('button', { name: 'Send pitch (1 credit)' }));
    expect(await screen.findByRole('dialog', { name: 'Buy more to continue' })).toBeInTheDocument();
  });

  it("lets the owner end it early after confirming: 'Your feature has ended'", async () => {
    let ended = false;
    const { user, api } = open('/pitch/f2', {
      'GET pitch/f2': () => ({
        feature: feature({ id: 'f2', ...OWN, status: ended ? 'ended' : 'live', canEnd: !ended, canPitch: false, pitch: null }),
        options: OPTIONS,
      }),
      'DELETE pitch/f2': () => {
        ended = true;
        return { message: 'Your feature has ended', feature: feature({ id: 'f2', ...OWN, status: 'ended' }) };
      },
    });
    expect(await screen.findByText(/It's live in the Pitch Area until 18 Feb 2027/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Pitch' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'End feature early' }));
    const confirmDialog = within(await screen.findByRole('dialog', { name: 'End your feature early?' }));
    // A regular member's menu says Requests: the confirm names the same place.
    expect(confirmDialog.getByText(/Pitches you received stay in Requests\./)).toBeInTheDocument();
    expect(confirmDialog.queryByText(/Pitches Received/)).not.toBeInTheDocument();
    await user.click(confirmDialog.getByRole('button', { name: 'Cancel' }));
    expect(api.calls('DELETE pitch/f2')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'End feature early' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'End your feature early?' })).getByRole('button', { name: 'End feature' }));
    expect(await screen.findByText('Your feature has ended')).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'Feature your brand again' })).toBeInTheDocument();
  });

  it('offers no end while a paid feature awaits approval, and lets an unpaid one be withdrawn', async () => {
    open('/pitch/f3', {
      'GET pitch/f3': { feature: feature({ id: 'f3', ...OWN, status: 'pending', approvedAt: null, expiresAt: null, payWith: 'credits', paid: true, canPitch: false, pitch: null }), options: OPTIONS },
    });
    expect(await screen.findByText('We normally approve features within 24 hours and confirm by email.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /End feature|Withdraw/ })).not.toBeInTheDocument();
  });

  it('withdraws an unpaid feature awaiting approval after confirming', async () => {
    let withdrawn = false;
    const draft = { id: 'f4', ...OWN, approvedAt: null, expiresAt: null, payWith: 'product', paid: false, canPitch: false, pitch: null } as const;
    const { user, api } = open('/pitch/f4', {
      'GET pitch/f4': () => ({ feature: feature({ ...draft, status: withdrawn ? 'ended' : 'pending', canWithdraw: !withdrawn }), options: OPTIONS }),
      'DELETE pitch/f4': () => {
        withdrawn = true;
        return { message: 'Your feature has ended', feature: feature({ ...draft, status: 'ended' }) };
      },
    });
    expect(await screen.findByText("It's not paid yet. Pay for it and we'll review it.")).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'End feature early' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Withdraw feature' }));
    const confirmDialog = within(await screen.findByRole('dialog', { name: 'Withdraw your feature?' }));
    expect(confirmDialog.getByText(/Nothing has been paid for it, so nothing is lost/)).toBeInTheDocument();
    await user.click(confirmDialog.getByRole('button', { name: 'Withdraw feature' }));
    expect(await screen.findByText('You withdrew it before it went live. You can feature your brand again.')).toBeInTheDocument();
    expect(api.calls('DELETE pitch/f4')).toHaveLength(1);
  });

  it('/pitch/jump/{id} opens the feature', async () => {
    open('/pitch/jump/f1', { 'GET pitch/f1': { feature: feature({ canPitch: true, pitch: null }), options: OPTIONS } });
    expect(await screen.findByRole('heading', { level: 1, name: 'Winter gift box partners' })).toBeInTheDocument();
  });
});

describe('Features to approve', () => {
  it('approves, and refuses with a reason', async () => {
    let left = [feature({ id: 'f1', status: 'pending', payWith: 'credits', paid: true }), feature({ id: 'f3', title: 'Spring swap', status: 'pending', payWith: 'credits', paid: true })];
    const { user, api } = open(
      '/admin/features',
      {
        'GET admin/features?status=pending': () => ({ features: left, status: 'pending' }),
        'POST admin/features/f1/approve': () => {
          left = left.filter((f) => f.id !== 'f1');
          return { feature: feature() };
        },
        'POST admin/features/f3/refuse': () => {
          left = [];
          return { feature: feature({ id: 'f3', status: 'refused' }), creditsReturned: 3 };
        },
      },
      { ...TEST_SESSION, sessionInfo: { access: 'admin' } },
    );
    await user.click(await screen.findByRole('button', { name: /Approve\s?: Winter gift box partners/ }));
    expect(await screen.findByText('Feature approved')).toBeInTheDocument();
    await waitFor(() => {
      expect(screen.queryByRole('button', { name: /Approve\s?: Winter gift box partners/ })).not.toBeInTheDocument();
    });
    await user.click(screen.getByRole('button', { name: /Refuse\s?: Spring swap/ }));
    const dialog = within(await screen.findByRole('dialog'));
    await user.click(dialog.getByRole('button', { name: 'Refuse feature' }));
    expect(dialog.getByText('This field is required')).toBeInTheDocument();
    await user.type(dialog.getByLabelText('Reason (the member sees it)'), 'Please describe the offer.');
    await user.click(dialog.getByRole('button', { name: 'Refuse feature' }));
    expect(await screen.findByText('Nothing to approve')).toBeInTheDocument();
    expect(api.calls('POST admin/features/f3/refuse')[0]?.body).toEqual({ reason: 'Please describe the offer.' });
  });
});

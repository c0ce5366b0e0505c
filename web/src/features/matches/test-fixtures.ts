import type { BrandOptions, BrandProfile, PublicBrandView } from '@/features/brands';
import type { MatchCard } from './api/matches';

/** What the server says each label promises once our own requests back it
 * (tandem.domain.brand_profile.fit_promise); null: nothing backed yet. */
export const FIT_PROMISE = {
  'Great fit': 'Of requests sent to Great fit brands, about 4 in 10 were accepted',
  'Good fit': 'Of requests sent to Good fit brands, about 3 in 10 were accepted',
  'Worth a look': null,
} as const;

export function matchCard(overrides: Partial<MatchCard> = {}): MatchCard {
  return {
    fitPromise: FIT_PROMISE[overrides.fit ?? 'Great fit'],
    id: 21,
    name: 'Bean Bros',
    nameVisible: true,
    logoUrl: null,
    category: 'food & drink',
    description: 'Small-batch coffee',
    reasons: ['You both reach women 25-34 in the United Kingdom', 'They want newsletter swaps, like you'],
    score: 86,
    fit: 'Great fit',
    saved: false,
    isNew: false,
    ...overrides,
  };
}

export function matchesBody(matches: readonly MatchCard[], overrides: Record<string, unknown> = {}) {
  return { matches, showingBrandNames: true, runOutstanding: false, runId: null, ...overrides };
}

export const OPTIONS: { [K in keyof BrandOptions]: BrandOptions[K] } = {
  categories: ['food & drink', 'beauty', 'home'],
  companySizes: ['1-10', '11-50'],
  audienceSizes: ['under 1K', '1K-10K'],
  niches: {
    'food & drink': ['snacks', 'coffee & tea'],
    beauty: ['skincare', 'makeup'],
    home: ['furniture', 'decor'],
  },
  priceTiers: ['affordable', 'mid-range', 'premium'],
  values: ['sustainable', 'vegan'],
  collabKinds: ['giveaways', 'newsletter swaps'],
  countries: [
    { code: 'FR', name: 'France' },
    { code: 'GB', name: 'United Kingdom' },
  ],
  ageBands: ['18-24', '25-34'],
  genders: ['women', 'men'],
};

export function brandProfile(overrides: Partial<BrandProfile> = {}): BrandProfile {
  return {
    id: 1,
    name: 'Oat & Co',
    logoUrl: null,
    website: 'https://oat.example',
    description: 'Oat milk',
    category: 'food & drink',
    companySize: '1-10',
    audienceSize: '',
    niche: '',
    priceTier: '',
    audience: { ageBands: ['25-34'], genders: ['women'], countries: ['GB'] },
    values: ['sustainable'],
    collabKinds: ['giveaways'],
    social: { instagram: null, tiktok: null, facebook: null, linkedin: null, x: null, youtube: null },
    contact: { name: 'Ana', email: 'ana@oat.example', phone: null },
    hideName: false,
    ...overrides,
  };
}

/** A GET brand/{id} answer (a plain object type, so it fits mockApi's answers). */
export function publicView(
  overrides: Partial<PublicBrandView> = {},
  brand: Partial<PublicBrandView['brand']> = {},
): { [K in keyof PublicBrandView]: PublicBrandView[K] } {
  return {
    brand: {
      id: 21,
      name: 'Bean Bros',
      nameVisible: true,
      logoUrl: null,
      website: 'https://bean.example',
      description: 'Small-batch coffee roasters.',
      category: 'food & drink',
      companySize: '11-50',
      niche: 'coffee & tea',
      priceTier: 'premium',
      audience: { ageBands: ['25-34'], genders: ['women'], countries: ['GB', 'FR'] },
      values: ['sustainable'],
      collabKinds: ['newsletter swaps'],
      social: { instagram: 'https://instagram.com/bean' },
      contact: null,
      ...brand,
    },
    relation: { saved: false, dismissed: false, requestState: null, requestId: null },
    match: {
      score: 86,
      fit: 'Great fit',
      fitPromise: FIT_PROMISE['Great fit'],
      reasons: ['They want newsletter swaps, like you'],
    },
    isOwn: false,
    ...overrides,
  };
}

type Lists = 'potentials' | 'saved';

/**
 * The Matches API of one brand (brand 1) as the server keeps it: what is saved, dismissed and
 * new, lists read when the request arrives (listing Potentials marks them seen), save / unsave /
 * dismiss / undo of each card, and a run `runId` outstanding until its first check. While
 * holding, a list read is answered only at `release()` (a slow read: it may answer after a
 * save written next to it). Spread its `routes` into mockApi; routes after them win.
 */
export function matchesServer(cards: readonly MatchCard[], options: { readonly runId?: string } = {}) {
  const saved = new Set(cards.filter((card) => card.saved).map((card) => card.id));
  const dismissed = new Set<number>();
  const fresh = new Set(cards.filter((card) => card.isNew).map((card) => card.id));
  let runOutstanding = options.runId !== undefined;
  let holding = false;
  const held: (() => void)[] = [];

  const read = (list: Lists) => {
    const now = cards
      .filter((card) => !dismissed.has(card.id) && (list === 'potentials' || saved.has(card.id)))
      .map((card) => ({ ...card, saved: saved.has(card.id), isNew: fresh.has(card.id) }));
    if (list === 'potentials') fresh.clear();
    return matchesBody(now, { runOutstanding, runId: runOutstanding ? (options.runId ?? null) : null });
  };
  const answer = (list: Lists) => () => {
    const body = read(list); // what the server had when the read happened
    if (!holding) return body;
    return new Promise((resolve) => {
      held.push(() => {
        resolve(body);
      });
    });
  };

  const routes: Record<string, () => unknown> = {
    'GET matches?list=potentials': answer('potentials'),
    'GET matches?list=saved': answer('saved'),
  };
  for (const { id } of cards) {
    routes[`PUT matches/${id}/saved`] = () => {
      saved.add(id);
      dismissed.delete(id);
      return { saved: true };
    };
    routes[`DELETE matches/${id}/saved`] = () => {
      saved.delete(id);
      return { saved: false };
    };
    routes[`PUT matches/${id}/dismissed`] = () => {
      dismissed.add(id);
      saved.delete(id);
      fresh.delete(id);
      return { dismissed: true };
    };
    routes[`DELETE matches/${id}/dismissed`] = () => {
      dismissed.delete(id);
      return { dismissed: false };
    };
  }
  if (options.runId !== undefined) {
    routes[`GET matching/run-check/${options.runId}/1`] = () => {
      runOutstanding = false;
      return { status: 'done', message: 'Your matches are up to date.' };
    };
  }

  return {
    routes,
    saved,
    dismissed,
    hold() {
      holding = true;
    },
    /** Answers every held read, oldest first, and stops holding. */
    release() {
      holding = false;
      for (const next of held.splice(0)) next();
    },
  };
}

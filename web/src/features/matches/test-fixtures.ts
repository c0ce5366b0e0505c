import type { BrandOptions, BrandProfile, PublicBrandView } from '@/features/brands';
import type { MatchCard } from './api/matches';

export function matchCard(overrides: Partial<MatchCard> = {}): MatchCard {
  return {
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
      audience: { ageBands: ['25-34'], genders: ['women'], countries: ['GB', 'FR'] },
      values: ['sustainable'],
      collabKinds: ['newsletter swaps'],
      social: { instagram: 'https://instagram.com/bean' },
      contact: null,
      ...brand,
    },
    relation: { saved: false, dismissed: false, requestState: null, requestId: null },
    match: { score: 86, fit: 'Great fit', reasons: ['They want newsletter swaps, like you'] },
    isOwn: false,
    ...overrides,
  };
}

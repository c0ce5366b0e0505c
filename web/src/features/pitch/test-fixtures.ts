import type { Feature, PitchOptions } from './api/pitch';

export const OPTIONS: PitchOptions = {
  collabKinds: ['giveaways', 'co-branded products', 'content swaps', 'newsletter swaps', 'events', 'bundles'],
  categories: ['food & drink', 'home', 'beauty'],
  terms: [
    'Your feature is shown in the Pitch Area for a term of 3 or 6 months.',
    'It can be ended early only by written consent of both parties, with no refund.',
    "We can't guarantee that brands will respond to your feature.",
    'Features are normally approved within 24 hours; we confirm the approval by email.',
  ],
  months: [3, 6],
  featureCost: 3,
  pitchCost: 1,
};

export function feature(overrides: Partial<Feature> = {}): Feature {
  return {
    id: 'f1',
    brand: { id: 7, name: 'Wild Fern Candles', logoUrl: null, category: 'home' },
    nameVisible: true,
    title: 'Winter gift box partners',
    offer: 'A spot in our winter gift box.',
    lookingFor: 'Independent food brands.',
    collabKinds: ['bundles', 'giveaways'],
    audience: 'UK, 25-44',
    closingDate: null,
    months: 3,
    status: 'live',
    live: true,
    createdAt: '2026-11-20T10:00:00Z',
    approvedAt: '2026-11-20T12:00:00Z',
    expiresAt: '2027-02-18T12:00:00Z',
    own: false,
    ...overrides,
  };
}

export const OWN = {
  own: true,
  brand: { id: 1, name: 'Oat & Co', logoUrl: null, category: 'food & drink' },
  payWith: 'credits',
  paid: true,
  refusedReason: null,
  // the owner's rights as the server answers them (override where a test's feature may be ended)
  canEnd: false,
  canWithdraw: false,
} as const;

export const NO_FEATURE_DONE = {
  _id: null,
  approved: false,
  current: false,
  pending: false,
  paid: false,
  expires: null,
  hasHadLive: false,
};

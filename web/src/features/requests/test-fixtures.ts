/** Test data shaped like the docs/api.md answers (used by the Vitest files of these features). */
import type { RequestItem } from './api/requests';

export const OAT = { id: 1, name: 'Oat & Co', logoUrl: null, category: 'food & drink' };
export const FERN = { id: 7, name: 'Wild Fern Candles', logoUrl: null, category: 'home' };
export const BEAN = { id: 8, name: 'Bean Bros', logoUrl: 'https://cdn.example/bean.png', category: 'food & drink' };

export function requestItem(overrides: Partial<RequestItem> = {}): RequestItem {
  return {
    id: 'r1',
    status: 'pending',
    direction: 'received',
    fromBrand: FERN,
    toBrand: OAT,
    message: 'Fancy a candle and oat cookie giveaway?',
    createdAt: new Date(Date.now() - 5 * 60_000).toISOString(),
    updatedAt: null,
    isNew: false,
    contact: null,
    ...overrides,
  };
}

export const CREDITS_6_OF_6 = { available: 6, total: 6, totalMain: 6, totalAddOns: 0, active: true, hasSubscription: true };
export const CREDITS_5_OF_6 = { ...CREDITS_6_OF_6, available: 5 };

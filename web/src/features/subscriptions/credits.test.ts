import { describe, expect, it } from 'vitest';
import { creditsText, OVERLAY_TITLES, overlayTitle, planDescription } from './credits';

describe('creditsText', () => {
  it("reads 'available/total' and is hidden when the total is 0", () => {
    expect(creditsText({ available: 5, total: 6 })).toBe('5/6');
    expect(creditsText({ available: 0, total: 9 })).toBe('0/9');
    expect(creditsText({ available: 0, total: 0 })).toBeNull();
    expect(creditsText({})).toBeNull();
    expect(creditsText(null)).toBeNull();
  });
});

describe('overlayTitle (SPEC "Subscriptions screen")', () => {
  const subscribed = { hasSubscription: true, available: 3, total: 6 };
  it('names the refusal the server gave', () => {
    expect(overlayTitle('out_of_credits', 'request', subscribed)).toBe('Buy more to continue');
    expect(overlayTitle('no_subscription', 'matches', null)).toBe('You need to buy a subscription to continue');
  });

  it('has no title on request and matches pages with credits left', () => {
    for (const type of ['request', 'requests', 'matches', 'match'] as const) {
      expect(overlayTitle(null, type, subscribed)).toBeNull();
    }
    expect(overlayTitle(null, 'pitch', subscribed)).not.toBeNull();
  });

  it('decides from the account when opened without a refusal', () => {
    expect(overlayTitle(null, 'request', { hasSubscription: true, available: 0, total: 6 })).toBe(OVERLAY_TITLES.outOfCredits);
    expect(overlayTitle(null, 'request', { hasSubscription: false, total: 0 })).toBe(OVERLAY_TITLES.noSubscription);
  });
});

describe('planDescription', () => {
  it('describes the plan', () => {
    expect(planDescription({ active: true, isYearly: true })).toBe('You have a yearly subscription.');
    expect(planDescription({ trialling: true })).toBe("You're on a free trial.");
    expect(planDescription(null)).toBe("You don't have a subscription yet.");
  });
});

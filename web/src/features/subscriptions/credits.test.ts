import { describe, expect, it } from 'vitest';
import { formatOrdinalDate } from '@/lib/format';
import { creditsText, expiringLine, nextCreditsLine, OVERLAY_TITLES, overlayTitle, planDescription, planLines } from './credits';
import { creditsOf, inDays } from './test-fixtures';

const day = (iso: string | undefined) => formatOrdinalDate(new Date(iso ?? ''));

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
  const subscribed = creditsOf('monthly');
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

  it("decides from the server's canSend when opened without a refusal", () => {
    expect(overlayTitle(null, 'request', { ...subscribed, available: 0 })).toBe(OVERLAY_TITLES.outOfCredits);
    expect(overlayTitle(null, 'request', { ...creditsOf('none'), trialOffered: false })).toBe(OVERLAY_TITLES.noSubscription);
    // With the free trial on offer the overlay does not say "buy" above a card that says "Free".
    expect(overlayTitle(null, 'request', creditsOf('none'))).toBe('Start your free trial or choose a plan to continue');
    expect(overlayTitle('no_subscription', 'matches', creditsOf('none'))).toBe(OVERLAY_TITLES.trialOffered);
    // Gifted credits may be spent (canSend): no call to subscribe while they last.
    expect(overlayTitle(null, 'request', creditsOf('gifted-only'))).toBeNull();
    expect(overlayTitle(null, 'request', { ...creditsOf('gifted-only'), available: 0 })).toBe(OVERLAY_TITLES.outOfCredits);
    // Whatever else the credits say (credits held, a plan flag), canSend false asks for a subscription.
    expect(overlayTitle(null, 'pitch', { hasSubscription: true, active: true, available: 3, total: 6, canSend: false })).toBe(
      OVERLAY_TITLES.noSubscription,
    );
  });
});

describe('planDescription', () => {
  it("is the server's sentence, never one made up here", () => {
    expect(planDescription(creditsOf('yearly'))).toBe('You have a yearly subscription.');
    expect(planDescription(creditsOf('trial'))).toBe("You're on a free trial.");
    expect(planDescription({ active: true, isYearly: true })).toBeNull();
    expect(planDescription(null)).toBeNull();
  });
});

describe('credits lines', () => {
  it("tells SPEC's next as credits that expire, never as new credits", () => {
    const credits = { next: { to: inDays(5), credits: 2 } };
    expect(expiringLine(credits)).toBe(`2 of your credits expire on ${day(credits.next.to)}.`);
    expect(nextCreditsLine(credits)).toBeNull();
  });

  it("tells the plan's next month of credits from plan.nextCredits", () => {
    const credits = creditsOf('yearly') as { plan: { nextCredits: { on: string } } };
    expect(nextCreditsLine(credits)).toBe(`Your next 6 credits arrive on ${day(credits.plan.nextCredits.on)}.`);
  });
});

describe('planLines', () => {
  const plan = (type: Parameters<typeof creditsOf>[0]) => (creditsOf(type) as { plan: Record<string, string> }).plan;

  it('renews a yearly plan on its yearly date, with the monthly credits on their own line', () => {
    const p = plan('yearly');
    expect(planLines(creditsOf('yearly'))).toEqual([
      `It renews on ${day(p.renewsOn)}.`,
      `Your next 6 credits arrive on ${day((p.nextCredits as unknown as { on: string }).on)}.`,
    ]);
  });

  it('never shows a gift, a fixed term or a granted plan with an end as renewing', () => {
    for (const type of ['gifted-only', 'fixed term', 'granted plan', 'trial cancelled'] as const) {
      expect(planLines(creditsOf(type)).join(' ')).not.toMatch(/renews on/);
    }
    expect(planLines(creditsOf('fixed term'))[0]).toBe(`Your access ends on ${day(plan('fixed term').endsOn)}.`);
  });

  it('says a cancelled subscription is cancelled once, with the date it stays valid to', () => {
    const monthly = creditsOf('monthly') as { plan: Record<string, unknown> };
    const endsOn = inDays(9);
    const cancelled = {
      ...monthly,
      plan: { ...monthly.plan, state: 'cancelled', description: 'Your subscription is cancelled.', renews: false, renewsOn: null, endsOn },
    } as Parameters<typeof planLines>[0];
    const text = [planDescription(cancelled), ...planLines(cancelled)].join(' ');
    expect(text).toBe(
      `Your subscription is cancelled. It stays valid until ${day(endsOn)}. You can renew it from Manage subscription. Your next 6 credits arrive on ${day(
        (monthly.plan.nextCredits as { on: string }).on,
      )}.`,
    );
    expect(text.match(/cancelled/g)).toHaveLength(1);
  });

  it('adds nothing about renewal while the plan awaits approval', () => {
    expect(planLines(creditsOf('pending approval'))).toEqual([]);
  });
});

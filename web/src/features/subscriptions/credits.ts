/**
 * Credits and plan texts (SPEC sections 1, 2 "Subscriptions screen", 3 and 9), as
 * pure functions of the dashboard's credits info so the rules are testable.
 */
import type { CreditsInfo } from '@/lib/session-state';
import { formatOrdinalDate, parseDate } from '@/lib/format';

// The badge text lives on its own so the shell's top bar does not carry these rules (./credits-text).
export { creditsText } from './credits-text';

/** Why the overlay opened: the server refused an action (402 codes of docs/api.md), or the member asked. */
export type OverlayReason = 'out_of_credits' | 'no_subscription';

/** The route meta type of SPEC "Subscriptions screen". */
export type SubscriptionType = 'account' | 'pitch' | 'request' | 'requests' | 'matches' | 'match';

export const OVERLAY_TITLES = {
  outOfCredits: 'Buy more to continue',
  noSubscription: 'You need to buy a subscription to continue',
  // The same refusal when the free trial is on offer: its card says "Free", so "buy" would be untrue.
  trialOffered: 'Start your free trial or choose a plan to continue',
} as const;

export const CREDITS_PER_MONTH = 6;
export const REQUEST_COST = 1;
export const PITCH_COST = 1;
export const FEATURE_COST = 3;

/**
 * The overlay title (SPEC): out of credits 'Buy more to continue'; an account the server says
 * may not send (credits.canSend false) 'You need to buy a subscription to continue' (or, while
 * the free trial is on offer, 'Start your free trial or choose a plan to continue'); none on
 * request and matches pages with credits left. Why the overlay opened (the server's refusal)
 * comes first.
 */
export function overlayTitle(
  reason: OverlayReason | null,
  type: SubscriptionType | null,
  credits: CreditsInfo | null | undefined,
): string | null {
  const noSubscription = credits?.trialOffered === true ? OVERLAY_TITLES.trialOffered : OVERLAY_TITLES.noSubscription;
  if (reason === 'out_of_credits') return OVERLAY_TITLES.outOfCredits;
  if (reason === 'no_subscription') return noSubscription;
  if (credits?.canSend !== true) return noSubscription;
  if ((credits.available ?? 0) <= 0) return OVERLAY_TITLES.outOfCredits;
  if (type === 'request' || type === 'requests' || type === 'matches' || type === 'match') return null;
  return 'Your plan and credits';
}

/** Plan benefits listed to members (SPEC section 1). */
export const PLAN_BENEFITS: readonly string[] = [
  `${CREDITS_PER_MONTH} credits per month`,
  'See all brand names in Matches',
  'Unlimited incoming requests',
  'Feature your brand in the Pitch Area',
  'Join collaboration opportunities in Pitch',
  'Collab Ideas: 26 ideas, guides and templates',
  'An onboarding call with a partnerships expert',
  '30-day money-back guarantee',
];

/** How credits work (SPEC sections 1 and 9), one rule a line. */
export const CREDIT_RULES: readonly { readonly title: string; readonly text: string }[] = [
  {
    title: `${CREDITS_PER_MONTH} credits a month`,
    text: 'Your subscription gives you 6 credits each subscription month. Unused credits do not roll over.',
  },
  {
    title: 'Requests hold 1 credit',
    text: 'Sending a connection request holds 1 credit. If the request is declined or cancelled within the same subscription month, the credit comes back to you.',
  },
  { title: 'Pitching costs 1 credit', text: 'Pitching to collaborate with a brand in the Pitch Area uses 1 credit.' },
  { title: 'Featuring costs 3 credits', text: 'Featuring your brand in the Pitch Area uses 3 credits.' },
  { title: 'Accepting is free', text: 'Accepting a request you received never costs a credit.' },
];

/** The server's one true sentence about the member's plan (credits.plan.description), or null before it has said. */
export function planDescription(credits: CreditsInfo | null | undefined): string | null {
  const text = credits?.plan?.description;
  return typeof text === 'string' && text.trim() !== '' ? text : null;
}

function dayText(value: string | number | null | undefined): string | null {
  const date = parseDate(value);
  return date ? formatOrdinalDate(date) : null;
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/**
 * SPEC's `next` {to, credits}: the soonest-expiring credits the member holds now, "2 of your
 * credits expire on 26th December." Never new credits: those are the plan's nextCredits.
 */
export function expiringLine(credits: CreditsInfo | null | undefined): string | null {
  const count = credits?.next?.credits;
  const day = dayText(credits?.next?.to);
  if (day === null || typeof count !== 'number' || count <= 0) return null;
  return count === 1 ? `1 of your credits expires on ${day}.` : `${count} of your credits expire on ${day}.`;
}

/** The plan's next month of credits (credits.plan.nextCredits): "Your next 6 credits arrive on 26th December." */
export function nextCreditsLine(credits: CreditsInfo | null | undefined): string | null {
  const next = credits?.plan?.nextCredits;
  const day = dayText(next?.on);
  if (day === null || typeof next?.credits !== 'number' || next.credits <= 0) return null;
  return `Your next ${plural(next.credits, 'credit', 'credits')} ${next.credits === 1 ? 'arrives' : 'arrive'} on ${day}.`;
}

/**
 * The Billing page's lines about the plan after its lead sentence (credits.plan.description):
 * when it renews, ends or what a trial turns into, from the server's plan (kind, state, dates).
 * Every date is the server's: a yearly plan renews on its yearly date, its monthly credits
 * have their own line; a fixed term ends; a gift never renews.
 */
export function planLines(credits: CreditsInfo | null | undefined): string[] {
  const plan = credits?.plan;
  if (!plan) return [];
  const renewsOn = plan.renews === true ? dayText(plan.renewsOn) : null;
  const endsOn = dayText(plan.endsOn);
  const trialEndsOn = dayText(plan.trialEndsOn);
  const portal = credits.hasBillingAccount === true;
  const lines: string[] = [];
  if (plan.state === 'pending_approval' || plan.state === 'feature_only') {
    // The approval notice and the feature's status tell the rest.
  } else if (plan.kind === 'gifted') {
    if (!(plan.description ?? '').includes('do not renew')) lines.push('Gifted credits do not renew.');
  } else if (plan.kind === 'trial') {
    const ends = trialEndsOn ?? endsOn;
    if (renewsOn !== null) {
      lines.push(
        `Your free trial ends on ${ends ?? renewsOn}. Then your monthly subscription starts and renews each month, charged to the card you gave${
          portal ? ', unless you cancel it before then in Manage subscription' : ''
        }.`,
      );
    } else if (plan.source === 'stripe') {
      lines.push(`Your free trial is cancelled: it ends on ${endsOn ?? ends ?? 'its last day'} and you won't be charged.`);
    } else if (ends !== null) {
      lines.push(`Your free trial ends on ${ends}. Nothing is charged: choose a plan to keep going after it.`);
    }
  } else if (plan.kind === 'fixed_term') {
    const said = (plan.description ?? '').includes('does not renew');
    if (endsOn !== null) lines.push(`Your access ends on ${endsOn}.${said ? '' : ' It does not renew.'}`);
  } else if (plan.state === 'cancelled') {
    if (endsOn !== null) {
      lines.push(
        // The lead sentence (plan.description) already says it is cancelled.
        `It stays valid until ${endsOn}.${portal ? ' You can renew it from Manage subscription.' : ''}`,
      );
    }
  } else if (plan.kind === 'granted') {
    lines.push(endsOn !== null ? `It ends on ${endsOn} and does not renew.` : 'It runs until the Tandem team ends it.');
  } else if (renewsOn !== null) {
    lines.push(`It renews on ${renewsOn}.`);
  }
  const arriving = plan.state === 'pending_approval' ? null : nextCreditsLine(credits);
  if (arriving) lines.push(arriving);
  return lines;
}

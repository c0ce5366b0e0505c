/**
 * Credits and plan texts (SPEC sections 1, 2 "Subscriptions screen", 3 and 9), as
 * pure functions of the dashboard's credits info so the rules are testable.
 */
import type { CreditsInfo } from '@/features/dashboard';
import { formatCredits } from '@/lib/format';

/** Why the overlay opened: the server refused an action (402 codes of docs/api.md), or the member asked. */
export type OverlayReason = 'out_of_credits' | 'no_subscription';

/** The route meta type of SPEC "Subscriptions screen". */
export type SubscriptionType = 'account' | 'pitch' | 'request' | 'requests' | 'matches' | 'match';

export const OVERLAY_TITLES = {
  outOfCredits: 'Buy more to continue',
  noSubscription: 'You need to buy a subscription to continue',
} as const;

export const CREDITS_PER_MONTH = 6;
export const REQUEST_COST = 1;
export const PITCH_COST = 1;
export const FEATURE_COST = 3;

/** The badge text 'available/total', or null when it is hidden (no credits info or a total of 0). */
export function creditsText(credits: CreditsInfo | null | undefined): string | null {
  const total = credits?.total ?? 0;
  if (!Number.isFinite(total) || total <= 0) return null;
  const available = Math.max(0, credits?.available ?? 0);
  return formatCredits(available, total);
}

function hasSubscription(credits: CreditsInfo | null | undefined): boolean {
  return credits?.hasSubscription === true || credits?.active === true || credits?.trialling === true;
}

/**
 * The overlay title (SPEC): out of credits 'buy more to continue', otherwise without
 * a subscription 'you need to buy a subscription to continue'; none on request and
 * matches pages with credits left.
 */
export function overlayTitle(
  reason: OverlayReason | null,
  type: SubscriptionType | null,
  credits: CreditsInfo | null | undefined,
): string | null {
  if (reason === 'out_of_credits') return OVERLAY_TITLES.outOfCredits;
  if (reason === 'no_subscription') return OVERLAY_TITLES.noSubscription;
  const available = credits?.available ?? 0;
  if (hasSubscription(credits) || (credits?.total ?? 0) > 0) {
    if (available <= 0) return OVERLAY_TITLES.outOfCredits;
    if (type === 'request' || type === 'requests' || type === 'matches' || type === 'match') return null;
    return 'Your plan and credits';
  }
  return OVERLAY_TITLES.noSubscription;
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

/** One line about the member's plan, from the credits info. */
export function planDescription(credits: CreditsInfo | null | undefined): string {
  if (!credits) return "You don't have a subscription yet.";
  if (credits.pendingApproval) {
    return 'Your subscription is waiting for approval, normally within 24 hours. Requests you send meanwhile go out once it is approved.';
  }
  if (credits.trialling) return "You're on a free trial.";
  if (credits.fixedTerm) return 'You have fixed-term access.';
  if (credits.active || credits.hasSubscription) {
    return credits.isYearly ? 'You have a yearly subscription.' : 'You have a monthly subscription.';
  }
  if (credits.giftedOnly) return 'You have gifted credits, without a subscription.';
  return "You don't have a subscription yet.";
}

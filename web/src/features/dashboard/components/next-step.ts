import type { MenuCounts } from '@/lib/session-state';

export interface NextStep {
  readonly title: string;
  readonly text: string;
  readonly action: string;
  readonly to: string;
}

export interface NextStepContext {
  readonly counts: MenuCounts;
  readonly featureOnly: boolean;
  /** A feature of this brand has been live (credits.featureDone.hasHadLive). */
  readonly hasHadLive: boolean;
  /** The account includes the requests area (credits.areas.requests): a feature-only one once its feature was live. */
  readonly requestsArea: boolean;
  /** The account has no brand (yet): nothing of Matches, Requests or the Pitch Area applies. */
  readonly noBrand?: boolean;
  readonly isAdmin?: boolean;
  /** The team suspended the brand: it can't send or pitch, so nothing is suggested (the notice says what to do). */
  readonly suspended?: boolean;
}

/** The one thing the dashboard suggests doing next; null when there is nothing to suggest. */
export function nextStep({
  counts,
  featureOnly,
  hasHadLive,
  requestsArea,
  noBrand = false,
  isAdmin = false,
  suspended = false,
}: NextStepContext): NextStep | null {
  if (suspended && !noBrand) return null;
  if (noBrand && isAdmin) {
    return {
      title: 'Look after Tandem',
      text: 'Approve subscriptions and features, answer refunds and read what members report, in the admin console.',
      action: 'Open the admin console',
      to: '/admin',
    };
  }
  if (noBrand) {
    return {
      title: 'Add your brand',
      text: 'Matches, requests and the Pitch Area are all about a brand. Add yours to start.',
      action: 'Add your brand',
      to: '/account/brands',
    };
  }
  if (featureOnly) {
    if (requestsArea && counts.requests > 0) {
      return {
        title: 'Brands have pitched to you',
        text: 'Read the pitches brands have sent in reply to your feature and answer the ones you like.',
        action: 'Read pitches',
        to: '/requests/received',
      };
    }
    return {
      title: 'Feature your brand in the Pitch Area',
      text: 'Show your collaboration opportunity to every brand on Tandem for 3 or 6 months.',
      action: hasHadLive ? 'See your feature' : 'Feature your brand',
      to: hasHadLive ? '/pitch' : '/pitch/new',
    };
  }
  if (counts.requests > 0) {
    return {
      title: 'Brands want to work with you',
      text: 'You have new connection requests. Accepting a request is free and shares contact details.',
      action: 'Review requests',
      to: '/requests/received',
    };
  }
  if (counts.connections > 0) {
    return {
      title: 'Find more partners',
      text: 'Browse brands matched to yours and send a connection request to the ones you like.',
      action: 'Browse matches',
      to: '/matches',
    };
  }
  return {
    title: 'Find your first partners',
    text: 'Browse brands matched to yours and send a connection request. A request holds 1 credit, returned if it is declined.',
    action: 'See your matches',
    to: '/matches',
  };
}

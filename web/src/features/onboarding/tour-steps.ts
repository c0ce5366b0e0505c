/**
 * The tips tour (SPEC sections 2 and 6): steps general, about, mobile-menu, jobs and products,
 * shown to non-admin members with showInstructions. The mobile-menu step applies only at
 * widths of 767 px or less. Each step points at the element that carries its
 * `data-tour="<step id>"` attribute; a step whose element is missing or hidden (the sidebar
 * inside the closed drawer on a phone, say) is shown centred instead, so every text below
 * reads well with or without its arrow.
 */

export type TourStepId = 'general' | 'about' | 'mobile-menu' | 'jobs' | 'products' | 'account';

export interface TourStep {
  readonly id: TourStepId;
  readonly title: string;
  readonly body: string;
  /** CSS selector of the element the step points at. */
  readonly target: string;
  /** Where the tip sits relative to its element. */
  readonly placement: 'right' | 'bottom' | 'left';
  /** Only shown at this width or narrower (CSS pixels). */
  readonly maxWidth?: number;
  /**
   * What the step says and points at instead when its element is not on the page at all (the
   * credits badge of a member with no credits, which SPEC hides when the total is 0).
   */
  readonly otherwise?: Pick<TourStep, 'body' | 'target' | 'placement'>;
}

/** SPEC section 9: the tips tour's mobile width. */
export const TOUR_MOBILE_MAX_WIDTH = 767;

export const tourTarget = (id: TourStepId) => `[data-tour="${id}"]`;

export const TOUR_STEPS: readonly TourStep[] = [
  {
    id: 'general',
    title: 'Welcome to Tandem',
    body:
      "Here's a quick look around. Tandem suggests brands that suit yours and you choose who to ask. " +
      "Everything is in the menu: your matches, your requests, the brands you've connected with " +
      'and ideas for what to do together.',
    target: tourTarget('general'),
    placement: 'right',
  },
  {
    id: 'about',
    title: 'Tell other brands about yours',
    body:
      'Your brand profile, under Profile, is what other brands see and what your matches are based on. ' +
      "Add your audience, your values and the kinds of collaboration you're open to: " +
      'the more you tell us, the better your matches.',
    target: tourTarget('about'),
    placement: 'right',
  },
  {
    id: 'mobile-menu',
    title: 'Your menu',
    body:
      'On a small screen the menu lives behind this button. ' +
      'Tap it for Matches, Requests, Connections, Collab Ideas and the rest.',
    target: tourTarget('mobile-menu'),
    placement: 'bottom',
    maxWidth: TOUR_MOBILE_MAX_WIDTH,
  },
  {
    id: 'jobs',
    title: 'Collaboration opportunities',
    body:
      'In the Pitch Area, brands feature projects they want partners for. Pitch to one for 1 credit, ' +
      'or feature your own opportunity for 3 credits and let brands come to you.',
    target: tourTarget('jobs'),
    placement: 'right',
  },
  {
    id: 'products',
    title: 'Credits and your plan',
    body:
      'Your subscription gives you 6 credits a month. Sending a request holds 1, ' +
      'which comes back if the brand declines before your month ends. Accepting a request is free. ' +
      'Your credits are shown here, and you can buy more or change your plan under Billing.',
    target: tourTarget('products'),
    placement: 'bottom',
    // No credits, no badge: the tip says how credits come and points at the account menu (Billing).
    otherwise: {
      body:
        'Sending a request, pitching and featuring your brand use credits. A subscription gives you ' +
        '6 credits a month; a request holds 1, which comes back if the brand declines before your month ends. ' +
        'Accepting a request is free. Choose a plan under Billing, in your account menu here.',
      target: tourTarget('account'),
      placement: 'left',
    },
  },
];

/** The step as shown on this page: its `otherwise` when its own element is not there. */
export function stepAsShown(step: TourStep, root: ParentNode = document): TourStep {
  if (!step.otherwise || root.querySelector(step.target)) return step;
  return { ...step, ...step.otherwise };
}

/** The steps for a window of this width (the mobile-menu step only at 767 px or less). */
export function tourStepsFor(width: number): TourStep[] {
  return TOUR_STEPS.filter((step) => step.maxWidth === undefined || width <= step.maxWidth);
}

import { queryOptions } from '@tanstack/react-query';
import { api, asBrand } from '@/lib/api';

/** SPEC section 3 "Collab idea". */
export type Effort = 'minimal' | 'some' | 'maximum';

export interface CollabExample {
  readonly image: string;
  readonly link?: string;
}

export interface CollabIdea {
  readonly slug: string;
  readonly title: string;
  readonly image: string;
  /** The guide, in light Markdown (paragraphs, ### headings, - bullets, 1. steps, **bold**). */
  readonly content: string;
  readonly effort: Effort;
  readonly benefits: readonly string[];
  readonly examples: readonly CollabExample[];
  readonly example_title: string;
  readonly template_info: string;
}

/** GET collab: the ideas, the benefit label map and the effort labels. */
export interface CollabList {
  readonly ideas: readonly CollabIdea[];
  readonly benefits: Readonly<Record<string, string>>;
  readonly efforts: Readonly<Record<Effort, string>>;
  readonly total: number;
}

export const collabKeys = {
  all: ['collab'] as const,
  list: (brand: string) => ['collab', brand] as const,
};

/** Every idea, once: the page filters them itself, so a filter change costs no call. */
export function collabQuery(brand: string) {
  return queryOptions({
    queryKey: collabKeys.list(brand),
    queryFn: () => api.get<CollabList>('collab', asBrand(brand)),
    staleTime: 5 * 60_000, // written by the team: changes with a release, not while a member reads
  });
}

export interface IdeaFilters {
  readonly effort: string | null;
  readonly benefit: string | null;
}

/** The ideas with this effort and this benefit (either may be null: any). */
export function filterIdeas(ideas: readonly CollabIdea[], { effort, benefit }: IdeaFilters): CollabIdea[] {
  return ideas.filter(
    (idea) => (effort === null || idea.effort === effort) && (benefit === null || idea.benefits.includes(benefit)),
  );
}

/** GET collab/calendar: one retail or cultural moment in one year. Dates are 'YYYY-MM-DD'. */
export interface CalendarMoment {
  readonly slug: string;
  readonly name: string;
  readonly date: string;
  readonly end: string;
  readonly when: string;
  readonly countries: readonly string[];
  readonly description: string;
  readonly leadWeeks: number;
  /** 'Plan 8 weeks ahead'. */
  readonly lead: string;
  /** When to start planning: the date less the lead time. */
  readonly planFrom: string;
  /** Slugs of the Collab Ideas that suit it. */
  readonly ideas: readonly string[];
  /** Under way today (upcoming moments only). */
  readonly ongoing?: boolean;
}

export interface CalendarMonth {
  readonly month: number;
  readonly name: string;
  readonly moments: readonly CalendarMoment[];
}

export interface CollabCalendar {
  readonly today: string;
  readonly year: number;
  readonly years: readonly number[];
  readonly country: string | null;
  /** Country code → how the page names it ({GB: 'UK', US: 'US'}). */
  readonly countries: Readonly<Record<string, string>>;
  readonly upcoming: readonly CalendarMoment[];
  readonly months: readonly CalendarMonth[];
  /** Idea slug → title. */
  readonly ideas: Readonly<Record<string, string>>;
}

export interface CalendarFilters {
  readonly country: string | null;
  readonly year: number | null;
}

export function calendarQuery(brand: string, { country, year }: CalendarFilters = { country: null, year: null }) {
  const params = new URLSearchParams();
  if (country) params.set('country', country);
  if (year) params.set('year', String(year));
  const query = params.toString();
  return queryOptions({
    queryKey: ['collab', brand, 'calendar', country ?? 'all', year ?? 'now'] as const,
    queryFn: () => api.get<CollabCalendar>(query ? `collab/calendar?${query}` : 'collab/calendar', asBrand(brand)),
    staleTime: 5 * 60_000,
  });
}

/** A calendar day ('2026-02-14') as a local date (not UTC midnight, which is the day before west of London). */
export function calendarDay(iso: string): Date {
  const [year = 1970, month = 1, day = 1] = iso.split('-').map(Number);
  return new Date(year, month - 1, day);
}

/** The calendar link to a moment's ideas, and back. */
export function momentIdeasPath(slug: string): string {
  return `/inspiration/ideas?moment=${encodeURIComponent(slug)}`;
}

/** GET collab/examples: a collab two members agreed to show (SPEC "Project list item" and more). */
export interface MemberCollab {
  readonly _id: string;
  readonly name: string;
  readonly active: boolean;
  readonly shared: boolean;
  readonly brands: readonly { readonly id: number; readonly name: string; readonly logoUrl: string | null; readonly category: string }[];
  readonly summary: string;
  readonly idea: { readonly slug: string; readonly title: string } | null;
  readonly sharedAt: string | null;
  /** The selected brand is one of the two. */
  readonly yours: boolean;
  /** The finished collaboration shown, with the result figures both brands allowed (in `brands` order). */
  readonly collaboration?: SharedCollaborationResults | null;
}

export type FigureValue = number | { readonly minor: number; readonly currency: string } | null;

export interface SharedCollaborationResults {
  readonly title: string;
  readonly format: string;
  readonly start: string;
  readonly end: string;
  readonly figures: readonly { readonly figure: string; readonly label: string; readonly values: readonly FigureValue[] }[];
}

export function memberCollabsQuery(brand: string) {
  return queryOptions({
    queryKey: ['collab', brand, 'examples'] as const,
    queryFn: () => api.get<{ items: readonly MemberCollab[] }>('collab/examples', asBrand(brand)),
    staleTime: 0,
  });
}

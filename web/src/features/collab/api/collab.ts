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

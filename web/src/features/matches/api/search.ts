import { useInfiniteQuery, useMutation, useQueryClient, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api, asBrand } from '@/lib/api';
import { errorToast } from '@/lib/mutations';
import { matchKeys } from './keys';
import { setSaved, type MatchCard } from './matches';

/** docs/api.md "Matches": GET brands/search, one page (20 cards). */
export interface SearchPage {
  readonly matches: readonly MatchCard[];
  readonly total: number;
  readonly nextCursor: string | null;
  /** What this page showed, signed by the API: handed back once it is on screen (useKeepSearchViews). */
  readonly view?: string | null;
  readonly showingBrandNames: boolean;
}

/** The search and filters as they stand in the address (/matches/search?q=...). */
export const SEARCH_FIELDS = ['q', 'category', 'country', 'audienceSize', 'age', 'gender', 'collabType', 'open', 'sort'] as const;
export type SearchField = (typeof SEARCH_FIELDS)[number];
export type SearchParams = Partial<Record<SearchField, string>>;

export const SORTS = [
  { value: 'best', label: 'Best fit' },
  { value: 'newest', label: 'Newest' },
  { value: 'name', label: 'Name' },
] as const;

/** The longest search the server accepts (a longer one is refused with a 400). */
export const MAX_QUERY = 100;

/** The fields of an address's query string that make a search, empty ones left out. */
export function searchParamsOf(params: URLSearchParams): SearchParams {
  const found: SearchParams = {};
  for (const field of SEARCH_FIELDS) {
    const value = params.get(field)?.trim();
    if (value) found[field] = value;
  }
  return found;
}

/** The query string of a search (fields in a fixed order, so equal searches share a cache). */
export function searchQueryString(params: SearchParams): string {
  const query = new URLSearchParams();
  for (const field of SEARCH_FIELDS) {
    const value = params[field];
    if (value) query.set(field, value);
  }
  return query.toString();
}

export function searchBrands(brand: string, query: string, cursor: string | null): Promise<SearchPage> {
  const withCursor = cursor ? `${query ? `${query}&` : ''}cursor=${encodeURIComponent(cursor)}` : query;
  return api.get<SearchPage>(`brands/search${withCursor ? `?${withCursor}` : ''}`, asBrand(brand));
}

/**
 * The pages of one search of the member's brand (null: not known yet). Every page loaded is
 * kept with the search, so coming back (the back button) shows them all again at once.
 */
export function useBrandSearch(brand: string | null, query: string) {
  return useInfiniteQuery({
    queryKey: matchKeys.search(brand ?? '', query),
    queryFn: ({ pageParam }) => searchBrands(brand ?? '', query, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    enabled: brand !== null,
    staleTime: 60_000,
  });
}

/** A brand was saved or unsaved: every loaded search of the member's brand shows it. */
export function updateSearches(client: QueryClient, brand: string, brandId: number, saved: boolean): void {
  client.setQueriesData<InfiniteData<SearchPage>>({ queryKey: matchKeys.allSearches(brand) }, (data) =>
    data
      ? {
          ...data,
          pages: data.pages.map((page) => ({
            ...page,
            matches: page.matches.map((card) => (card.id === brandId ? { ...card, saved } : card)),
          })),
        }
      : data,
  );
}

/**
 * Save (or unsave) a brand from the search results: every loaded search shows it, and the
 * Matches lists are asked again; a refusal is an error toast.
 */
export function useSaveFromSearch(brand: string | null) {
  const client = useQueryClient();
  return useMutation({
    mutationKey: matchKeys.changes(brand ?? ''),
    meta: errorToast("We couldn't save that brand"),
    mutationFn: (match: MatchCard) => setSaved(match.id, !match.saved, asBrand(brand ?? 'default')),
    onSuccess: (answer, match) => {
      if (brand === null) return;
      updateSearches(client, brand, match.id, answer.saved);
      void client.invalidateQueries({ queryKey: matchKeys.allLists(brand) });
    },
  });
}

/** The views this tab has handed back (a page shown again from the cache is not sent twice). */
const keptViews = new Set<string>();

/**
 * docs/api.md POST brands/search/views: each page of results the screen shows is handed back
 * once, as what the brand was shown (what matching learns from). It never troubles the member:
 * a view that cannot be kept is not retried and shows nothing (no errorTitle).
 */
export function useKeepSearchViews(brand: string | null, pages: readonly SearchPage[]): void {
  const { mutate } = useMutation({
    mutationFn: ({ view, forBrand }: { view: string; forBrand: string }) =>
      api.post('brands/search/views', { view }, asBrand(forBrand)),
  });
  useEffect(() => {
    if (brand === null) return;
    for (const page of pages) {
      if (!page.view || keptViews.has(page.view)) continue;
      keptViews.add(page.view);
      mutate({ view: page.view, forBrand: brand });
    }
  }, [brand, pages, mutate]);
}

/**
 * Query keys of the matches feature. `brand` is the id of the member's brand the
 * data is for (the selected brand, 'default' resolved).
 */
export const matchKeys = {
  all: ['matches'] as const,
  forBrand: (brand: string) => ['matches', brand] as const,
  /** Every loaded pair of lists of one brand (any filter). */
  allLists: (brand: string) => ['matches', brand, 'lists'] as const,
  /** Both lists (Potentials and Saved) of one brand, for a brand filter ('' for none). */
  lists: (brand: string, filter: readonly number[]) => ['matches', brand, 'lists', filter.join(',')] as const,
  /** Every loaded search of one brand. */
  allSearches: (brand: string) => ['matches', brand, 'search'] as const,
  /** One search (GET brands/search) of one brand: its query string without the cursor. */
  search: (brand: string, query: string) => ['matches', brand, 'search', query] as const,
  /** The member's changes to matches of one brand (save, dismiss, undo): a mutation key. */
  changes: (brand: string) => ['matches', brand, 'changes'] as const,
  /** All match runs followed for one brand. */
  runs: (brand: string) => ['matches', brand, 'run'] as const,
  /** One match run's state (GET matching/run-check/{runId}/{brand}). */
  run: (brand: string, runId: string) => ['matches', brand, 'run', runId] as const,
};

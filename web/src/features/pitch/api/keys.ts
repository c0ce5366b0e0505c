/**
 * Query keys of the Pitch Area. The selected brand is the second part (names are masked
 * by what that brand's account may see; "own" is marked for it).
 */
export const pitchKeys = {
  all: ['pitch'] as const,
  forBrand: (brand: string) => ['pitch', brand] as const,
  /** The live features, by filter ('kind|category'). */
  list: (brand: string, filter: string) => ['pitch', brand, 'list', filter] as const,
  /** One feature (its page). */
  item: (brand: string, featureId: string) => ['pitch', brand, 'item', featureId] as const,
  /** The brand's own features and featureDone. */
  mine: (brand: string) => ['pitch', brand, 'mine'] as const,
  /** Admin: features awaiting approval (no brand). */
  admin: (status: string) => ['pitch', 'admin', status] as const,
};

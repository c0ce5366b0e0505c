/**
 * Query keys of the brands feature. The selected brand (the one the member acts
 * for) is the second part of every key.
 */
export const brandKeys = {
  all: ['brands'] as const,
  /** The account's own brands (/account/brands). */
  mine: (brand: string) => ['brands', brand, 'mine'] as const,
  /** The option lists the forms offer. */
  options: (brand: string) => ['brands', brand, 'options'] as const,
  /** Another brand's public view, as the selected brand sees it. */
  views: (brand: string) => ['brands', brand, 'view'] as const,
  view: (brand: string, brandId: string) => ['brands', brand, 'view', brandId] as const,
};

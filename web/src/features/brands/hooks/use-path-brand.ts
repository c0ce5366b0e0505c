import { useEffect } from 'react';
import { useDashboard } from '@/lib/session-state';
import { setSelectedBrand, useSelectedBrand } from '@/lib/session';

export interface PathBrand {
  /** The selected brand is the one the address names (or the address names none): load the page. */
  readonly ready: boolean;
  /** The address names a brand that is not one of the member's own. */
  readonly notYours: boolean;
}

/** SPEC section 5: the brand switch accepts only a numeric id, otherwise 'default'. */
export function brandFromPath(userBrand: string | undefined): string | null {
  if (userBrand === undefined) return null;
  return /^\d+$/.test(userBrand) ? userBrand : 'default';
}

// SPEC section 2's private routes whose address names the member's own brand ({userBrand}).
const USER_BRAND_PATHS: readonly RegExp[] = [
  /^\/(?:requests(?:\/(?:received|sent))?|connections|declines(?:\/(?:out|in))?|matches(?:\/(?:potentials|saved|search))?)\/(\d+)(?:\/|$)/,
  /^\/brand\/(\d+)\/[^/]+\/?$/,
];

/**
 * The member's brand an address of ours names ('/requests/received/12/r1' -> '12'), or null
 * (/matches/brand/{_id} and /brand/{_id} name another brand, not the member's).
 */
export function userBrandInPath(path: string): string | null {
  const pathname = path.split(/[?#]/, 1)[0] ?? '';
  for (const pattern of USER_BRAND_PATHS) {
    const found = pattern.exec(pathname);
    if (found?.[1]) return found[1];
  }
  return null;
}

/**
 * Per-brand pages (/matches/{userBrand}, /brand/{userBrand}/{_id}...) act for the brand
 * in their address: it becomes the selected brand (as the brand switcher does), once the
 * member's brands are known to include it. A brand that is not theirs is never selected
 * (the server would refuse it); the page then stays with the current brand.
 */
export function usePathBrand(userBrand: string | undefined): PathBrand {
  const wanted = brandFromPath(userBrand);
  const selected = useSelectedBrand();
  const { data } = useDashboard();
  const brands = data?.userBrands;
  const known = brands !== undefined;
  const owns = wanted === null || wanted === 'default' || (brands?.some((brand) => String(brand.id) === wanted) ?? false);
  const shouldSelect = wanted !== null && wanted !== selected && owns && (known || wanted === 'default');

  useEffect(() => {
    if (shouldSelect) setSelectedBrand(wanted);
  }, [shouldSelect, wanted]);

  const notYours = known && !owns;
  return { ready: wanted === null || wanted === selected || notYours, notYours };
}

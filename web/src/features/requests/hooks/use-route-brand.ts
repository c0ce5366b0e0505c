import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { useDashboard } from '@/lib/session-state';
import { setSelectedBrand, useSelectedBrand } from '@/lib/session';

export type RouteBrand =
  /** Lists may load for `brand` (the selected brand, as the X-Brand-Id header sends it). */
  | { readonly status: 'ready'; readonly brand: string }
  /** The brand named in the address is being selected, or the member's brands are loading. */
  | { readonly status: 'waiting' }
  /** The address names a brand that is not one of the member's. */
  | { readonly status: 'unknown' };

/**
 * Per-brand pages (/requests/sent/12...): the brand in the address becomes the
 * selected brand, as if chosen in the brand switcher, so every call acts for it.
 * Choosing another brand in the switcher afterwards moves to `pathFor(brand)`.
 * A brand that is not the member's is never sent to the server (the server would
 * refuse it and end the session); the page says so instead.
 */
export function useRouteBrand(userBrand: string | undefined, pathFor: (brand: string) => string): RouteBrand {
  const selected = useSelectedBrand();
  const brands = useDashboard().data?.userBrands;
  const navigate = useNavigate();
  const applied = useRef<string | null>(null);
  const known = userBrand !== undefined && brands?.some((brand) => String(brand.id) === userBrand) === true;
  const pathForRef = useRef(pathFor);
  useEffect(() => {
    pathForRef.current = pathFor;
  });

  useEffect(() => {
    if (userBrand === undefined || !known) return;
    if (applied.current !== userBrand) {
      applied.current = userBrand;
      if (selected !== userBrand) setSelectedBrand(userBrand);
    } else if (selected !== userBrand && /^\d+$/.test(selected)) {
      // The member picked another brand in the switcher: follow it.
      void navigate(pathForRef.current(selected), { replace: true });
    }
  }, [userBrand, known, selected, navigate]);

  if (userBrand === undefined) return { status: 'ready', brand: selected };
  // Already the selected brand: every call already acts for it, so the page need not wait for
  // the member's brands to load (an email's sign-in link selects it before the first call).
  if (!brands) return selected === userBrand ? { status: 'ready', brand: selected } : { status: 'waiting' };
  if (!known) return { status: 'unknown' };
  return selected === userBrand ? { status: 'ready', brand: selected } : { status: 'waiting' };
}

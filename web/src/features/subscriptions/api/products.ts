import { useQuery } from '@tanstack/react-query';
import { useSelectedBrand, useSession } from '@/lib/session';
import { fetchProducts } from './billing';
import { billingKeys } from './keys';

/**
 * The products answer for the selected brand. `redirect` is the app path checkout comes
 * back to (POST products {redirect}); null for the Billing page (GET products). Checkout
 * links are per member and expire, so every visit asks again.
 */
export function useProducts(redirect: string | null) {
  const brand = useSelectedBrand();
  const signedIn = useSession() !== null;
  return useQuery({
    queryKey: billingKeys.products(brand, redirect ?? ''),
    queryFn: () => fetchProducts(brand, redirect),
    enabled: signedIn,
    staleTime: 0,
  });
}

import { Link } from 'react-router';
import { useDashboard } from '@/features/dashboard';
import { BILLING_PATH } from '@/features/navigation';

/**
 * Says why a brand's name is masked: without a subscription, names are a
 * subscription benefit; with one, the brand chose to hide its name; and when
 * names are hidden platform-wide, they show once the brands connect.
 */
export function MaskedNameHint({ showingBrandNames }: { readonly showingBrandNames: boolean }) {
  // Names hidden platform-wide: a subscription would not show them either.
  const global = useDashboard().data?.showingBrandNamesGlobal;
  if (global === false) {
    return <p className="masked-hint">Brand names are shown once you connect.</p>;
  }
  if (showingBrandNames) {
    return <p className="masked-hint">This brand keeps its name private until you connect.</p>;
  }
  return (
    <p className="masked-hint">
      <Link to={BILLING_PATH}>Subscribe to see brand names</Link>
    </p>
  );
}

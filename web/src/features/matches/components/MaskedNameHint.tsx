import { Link } from 'react-router';
import { BILLING_PATH } from '@/features/navigation/menu';

/**
 * Says why a brand's name is masked: without a subscription, names are a
 * subscription benefit; with one, the brand chose to hide its name.
 */
export function MaskedNameHint({ showingBrandNames }: { readonly showingBrandNames: boolean }) {
  if (showingBrandNames) {
    return <p className="masked-hint">This brand keeps its name private until you connect.</p>;
  }
  return (
    <p className="masked-hint">
      <Link to={BILLING_PATH}>Subscribe to see brand names</Link>
    </p>
  );
}

import { Link } from 'react-router';
import { Alert } from '@/components/ui/Alert';
import { Button } from '@/components/ui/Button';
import { PageLoader } from '@/components/ui/PageLoader';
import { describeError } from '@/lib/api';
import { useBlockBrand, useBlockedBrands } from '../api/trust';

/** /account/blocked: the brands the selected brand blocked, each with Unblock. */
export function BlockedPage() {
  const list = useBlockedBrands();
  const unblock = useBlockBrand();
  const blocked = list.data?.blocked ?? [];
  return (
    <div className="blocked-page">
      <header className="page-header">
        <h1 className="page-title">Blocked brands</h1>
        <p className="page-header__lead">
          You and these brands don't see each other on Tandem, and neither can send the other a request or a pitch. Unblocking shows you to each other again; nothing else comes back.
        </p>
      </header>
      {list.isPending && <PageLoader />}
      {list.isError && <Alert>{describeError(list.error)}</Alert>}
      <p>
        <Link to="/account">Back to Account</Link>
      </p>
      {list.isSuccess && blocked.length === 0 && (
        <section className="card">
          <p>You haven't blocked any brand. You can block a brand from its page, a request or a pitch.</p>
        </section>
      )}
      {blocked.length > 0 && (
        <ul className="blocked-page__list" aria-label="Blocked brands">
          {blocked.map((brand) => (
            <li key={brand.id} className="card blocked-page__item">
              <div>
                <p className="blocked-page__name">{brand.name}</p>
                {brand.category && brand.nameVisible && <p className="muted">{brand.category}</p>}
              </div>
              <Button
                variant="secondary"
                busy={unblock.isPending && unblock.variables.brandId === brand.id}
                onClick={() => { unblock.mutate({ brandId: brand.id, blocked: false }); }}
                aria-label={`Unblock ${brand.name}`}
              >
                Unblock
              </Button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

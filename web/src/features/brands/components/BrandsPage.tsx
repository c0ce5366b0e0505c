import { useCallback, useEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Alert } from '@/components/ui/Alert';
import { Button } from '@/components/ui/Button';
import { PageLoader } from '@/components/ui/PageLoader';
import { useDashboard } from '@/lib/session-state';
import { messageOf } from '@/lib/api';
import { setSelectedBrand } from '@/lib/session';
import { useBrandOptions, useMyBrands, type BrandProfile } from '../api/brands';
import { missingForMatching } from '../utils';
import type { SavedBrand } from '../api/save-brand';
import { BrandForm } from './BrandForm';
import { BrandLogo } from './BrandLogo';

interface Notice {
  readonly brand: BrandProfile;
  readonly created: boolean;
  readonly matching: boolean;
  readonly logoError: string | null;
  readonly nameNotice: string | null;
}

/** /account/brands: the member's brands, and the form to add or edit one (?brand=new | ?brand={id}). */
export function BrandsPage() {
  const [params, setParams] = useSearchParams();
  const editing = params.get('brand');
  const [notice, setNotice] = useState<Notice | null>(null);
  const dashboard = useDashboard();
  const selectedId = String(dashboard.data?.dashboard?.brandId ?? '');
  const myBrands = useMyBrands();
  const brandOptions = useBrandOptions();
  const headingRef = useRef<HTMLHeadingElement>(null);

  // Moving between the list and the form puts focus (and the view) on the new heading.
  const shownView = useRef(editing);
  useEffect(() => {
    if (shownView.current === editing) return;
    shownView.current = editing;
    headingRef.current?.focus();
  }, [editing]);

  const openForm = useCallback(
    (brand: string | null) => {
      setParams(brand === null ? {} : { brand });
    },
    [setParams],
  );

  // useSaveBrand has put the saved brand in the lists and asked for the dashboard again.
  const onSaved = ({ brand, created, runId, logoError, nameNotice }: SavedBrand) => {
    setNotice({ brand, created, matching: runId !== null, logoError, nameNotice });
    openForm(null);
  };

  const failed = myBrands.isError ? myBrands : brandOptions.isError ? brandOptions : null;

  if ((myBrands.data === undefined || brandOptions.data === undefined) && failed === null) {
    return (
      <div className="brands-page">
        <BrandsHeader />
        <PageLoader inline />
      </div>
    );
  }

  if (myBrands.data === undefined || brandOptions.data === undefined) {
    const message = messageOf(failed?.error);
    if (message === null) return null; // the session ended: on the way to sign in
    return (
      <div className="brands-page">
        <BrandsHeader />
        <Alert title="We couldn't load your brands">
          <p>{message}</p>
          <Button
            variant="secondary"
            className="alert__action"
            onClick={() => {
              void failed?.refetch();
            }}
          >
            Try again
          </Button>
        </Alert>
      </div>
    );
  }

  const brands = myBrands.data;
  const options = brandOptions.data;

  if (editing !== null) {
    const brand = editing === 'new' ? null : (brands.find((item) => String(item.id) === editing) ?? undefined);
    if (brand === undefined) {
      return (
        <div className="brands-page">
          <BrandsHeader />
          <Alert title="We couldn't find that brand">
            <p>It isn't one of your brands.</p>
            <Button variant="secondary" className="alert__action" onClick={() => { openForm(null); }}>
              Back to your brands
            </Button>
          </Alert>
        </div>
      );
    }
    return (
      <div className="brands-page">
        <header className="page-header">
          <button type="button" className="link-button back-link" onClick={() => { openForm(null); }}>
            ← Your brands
          </button>
          <h1 ref={headingRef} tabIndex={-1} className="page-title">
            {brand === null ? 'Add a brand' : `Edit ${brand.name}`}
          </h1>
          <p className="page-header__lead">
            The more you tell us, the better your matches. Only your name, logo and profile are shown in Matches.
          </p>
        </header>
        <BrandForm
          key={editing}
          brand={brand}
          options={options}
          onSaved={onSaved}
          onCancel={() => {
            openForm(null);
          }}
        />
      </div>
    );
  }

  return (
    <div className="brands-page">
      <BrandsHeader headingRef={headingRef}>
        <Button onClick={() => { openForm('new'); }}>Add brand</Button>
      </BrandsHeader>

      {notice && (
        <Alert tone="success" title={notice.created ? `${notice.brand.name} is added` : `${notice.brand.name} is saved`}>
          {notice.matching && <p>We're finding matches for it now; you'll see them in Matches in a minute.</p>}
          {notice.logoError && <p className="field__error">Your logo didn't upload: {notice.logoError}</p>}
          {notice.nameNotice && <p>{notice.nameNotice}</p>}
          {notice.created && String(notice.brand.id) !== selectedId && (
            <Button
              variant="secondary"
              className="alert__action"
              onClick={() => {
                setSelectedBrand(notice.brand.id);
                setNotice(null);
              }}
            >
              Work as {notice.brand.name}
            </Button>
          )}
        </Alert>
      )}

      {brands.length === 0 ? (
        <section className="card empty-state" aria-labelledby="no-brands-title">
          <h2 id="no-brands-title" className="card__subtitle">
            Add your first brand
          </h2>
          <p className="muted">Tell us about your brand and we'll suggest partners that fit it, with the reasons why.</p>
          <Button onClick={() => { openForm('new'); }}>Add brand</Button>
        </section>
      ) : (
        <ul className="brand-list" aria-label="Your brands">
          {brands.map((brand) => (
            <li key={brand.id} className="card brand-list__item">
              <BrandLogo name={brand.name} logoUrl={brand.logoUrl} />
              <div className="brand-list__who">
                <h2 className="brand-list__name">
                  {brand.name}
                  {String(brand.id) === selectedId && brands.length > 1 && (
                    <span className="badge badge--current">Selected</span>
                  )}
                </h2>
                <p className="muted small">
                  {[brand.category || 'No category yet', brand.hideName ? 'Name hidden in Matches' : null]
                    .filter(Boolean)
                    .join(' · ')}
                </p>
                {missingForMatching(brand).length > 0 && (
                  <p className="brand-list__todo small">
                    Add {missingForMatching(brand).join(', ')} for better matches.
                  </p>
                )}
              </div>
              <div className="brand-list__actions">
                <Link to={`/brand/${brand.id}`} className="button button--ghost">
                  Preview<span className="visually-hidden"> {brand.name}</span>
                </Link>
                <Button variant="secondary" onClick={() => { openForm(String(brand.id)); }}>
                  Edit<span className="visually-hidden"> {brand.name}</span>
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function BrandsHeader({
  children,
  headingRef,
}: {
  readonly children?: ReactNode;
  readonly headingRef?: RefObject<HTMLHeadingElement | null>;
}) {
  return (
    <header className="page-header brands-page__header">
      <div>
        <h1 ref={headingRef} tabIndex={-1} className="page-title">
          Your brands
        </h1>
        <p className="page-header__lead">Your brand profiles decide who you are matched with.</p>
      </div>
      {children}
    </header>
  );
}

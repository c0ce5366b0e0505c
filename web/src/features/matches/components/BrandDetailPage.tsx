import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { Link, useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import { Alert } from '@/components/ui/Alert';
import { Button } from '@/components/ui/Button';
import { PageLoader } from '@/components/ui/PageLoader';
import {
  BrandLogo,
  SOCIAL_LABELS,
  SOCIAL_NETWORKS,
  updatePublicBrand,
  useBrandOptions,
  usePathBrand,
  usePublicBrand,
  type BrandRelation,
  type PublicBrandView,
} from '@/features/brands';
import { useCurrentBrandId, useDashboard, useSelectedBrandSuspended } from '@/lib/session-state';
import { useIsFeatureOnly } from '@/lib/login-check';
import { BRAND_PROFILE_PATH } from '@/features/navigation';
import { readPendingSend } from '@/features/requests';
import { usePaymentComplete } from '@/features/subscriptions';
import { TrustActions } from '@/features/trust';
import { ApiError, describeError, messageOf } from '@/lib/api';
import { useRelationChange } from '../api/match-changes';
import { FitMeter } from './FitMeter';
import { MaskedNameHint } from './MaskedNameHint';
import { openRequestFor, requestStateText } from '../utils';
import { SendRequestButton } from './SendRequestButton';

const SUSPENDED_NO_SEND = "Your brand is suspended, so it can't send requests.";

function canRequest(view: PublicBrandView): boolean {
  const state = view.relation.requestState;
  return !view.isOwn && !view.relation.waitMessage && (state === null || state === 'cancelled');
}

/** The request popup for this page's brand: once sent, the page shows it requested. */
function openRequestHere(client: QueryClient, brand: PublicBrandView['brand']): void {
  openRequestFor(brand, (requestId) => {
    updatePublicBrand(client, brand.id, (current) => ({
      ...current,
      relation: { ...current.relation, requestState: 'requested-out', requestId },
    }));
  });
}

function Chips({ items }: { readonly items: readonly string[] }) {
  return (
    <ul className="chips">
      {items.map((item) => (
        <li key={item} className="chip">
          {item}
        </li>
      ))}
    </ul>
  );
}

/** An optional profile field as the page shows it: "" (or missing, an older profile) is "not given". */
function givenOr(value: string | undefined): string {
  return value === undefined || value === '' ? 'not given' : value;
}

function Detail({ label, children }: { readonly label: string; readonly children: ReactNode }) {
  return (
    <div className="brand-facts__item">
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

export interface BrandDetailPageProps {
  /** 'match': the brand within Matches; 'public': the brand's public page. */
  readonly mode: 'match' | 'public';
}

/** A brand as the selected brand sees it: /matches/brand/{_id}, /brand/{_id} and their per-brand variants. */
export function BrandDetailPage({ mode }: BrandDetailPageProps) {
  const { userBrand, _id: rawId = '' } = useParams();
  const pathBrand = usePathBrand(userBrand);
  const brandId = useCurrentBrandId();
  const dashboard = useDashboard();
  const suspended = useSelectedBrandSuspended();
  const featureOnly = useIsFeatureOnly();
  const hasNoBrand = dashboard.data?.userBrands?.length === 0;
  // Country names for the markets; codes are shown while (or if) they can't load.
  const options = useBrandOptions().data;
  const client = useQueryClient();
  const titleId = useId();
  const location = useLocation();
  const navigate = useNavigate();
  const [search, setSearch] = useSearchParams();
  const wantsRequest = search.get('request') === '1';
  const validId = /^\d+$/.test(rawId);
  const canLoad = pathBrand.ready && brandId !== null && !hasNoBrand && validId;

  const state = usePublicBrand(canLoad ? brandId : null, rawId);
  // A copy from an earlier visit shows while a fresh one loads.
  const view = state.isError ? null : (state.data ?? null);
  const failure = state.isError ? state.error : null;
  const missing = failure instanceof ApiError && (failure.status === 404 || failure.status === 400);

  const setRelation = (change: Partial<BrandRelation>) => {
    updatePublicBrand(client, Number(rawId), (current) => ({ ...current, relation: { ...current.relation, ...change } }));
  };
  const relationChange = useRelationChange(brandId, Number(rawId));
  const changing = relationChange.isPending ? relationChange.variables.kind : null;

  // /matches/brand/{_id}?request=1 opens the request popup once the brand is loaded and the
  // dashboard has said whether the member's brand is suspended (the brand may load first).
  const loaded = view;
  const suspensionKnown = dashboard.data !== undefined;
  useEffect(() => {
    if (!wantsRequest || loaded === null || !suspensionKnown) return;
    setSearch(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('request');
        return next;
      },
      { replace: true },
    );
    if (!canRequest(loaded) || suspended) return;
    openRequestHere(client, loaded.brand);
  }, [wantsRequest, loaded, suspensionKnown, setSearch, client, suspended]);

  // A send stopped by 'Buy more to continue' goes on once the payment-complete message is
  // closed: the popup reopens with the message typed before checkout, ready to send.
  const paymentMessage = usePaymentComplete();
  const paidHere = useRef(false);
  useEffect(() => {
    if (paymentMessage !== null) {
      paidHere.current = true;
      return;
    }
    if (!paidHere.current || loaded === null) return;
    paidHere.current = false;
    if (!canRequest(loaded) || readPendingSend(loaded.brand.id, brandId) === null) return;
    openRequestHere(client, loaded.brand);
  }, [paymentMessage, loaded, brandId, client]);

  const matchesPath = userBrand === undefined ? '/matches' : `/matches/${userBrand}`;
  const back =
    mode === 'match' || location.key === 'default' ? (
      <Link to={matchesPath} className="back-link">
        ← Back to matches
      </Link>
    ) : (
      <button
        type="button"
        className="link-button back-link"
        onClick={() => {
          void navigate(-1);
        }}
      >
        ← Back
      </button>
    );

  if (!validId || missing) {
    return (
      <div className="brand-page">
        {back}
        <section className="card empty-state" aria-labelledby={titleId}>
          <h1 id={titleId} className="card__subtitle">
            We couldn't find that brand
          </h1>
          <p className="muted">The link may be wrong, or the brand is no longer on Tandem.</p>
          <Link to="/matches" className="button button--secondary">
            See your matches
          </Link>
        </section>
      </div>
    );
  }

  if (hasNoBrand) {
    return (
      <div className="brand-page">
        <section className="card empty-state" aria-labelledby={titleId}>
          <h1 id={titleId} className="card__subtitle">
            Add your brand first
          </h1>
          <p className="muted">Brands are shown as your brand sees them, so tell us about yours first.</p>
          <Link to={`${BRAND_PROFILE_PATH}?brand=new`} className="button button--primary">
            Add your brand
          </Link>
        </section>
      </div>
    );
  }

  if (failure !== null) {
    if (messageOf(failure) === null) return null;
    return (
      <div className="brand-page">
        {back}
        <Alert title="We couldn't load this brand">
          <p>{describeError(failure)}</p>
          <Button
            variant="secondary"
            className="alert__action"
            onClick={() => {
              void state.refetch();
            }}
          >
            Try again
          </Button>
        </Alert>
      </div>
    );
  }

  if (view === null) {
    return (
      <div className="brand-page">
        {back}
        <PageLoader inline />
      </div>
    );
  }

  const { brand, relation, match } = view;
  const masked = !brand.nameVisible;
  const countryName = (code: string) => options?.countries.find((country) => country.code === code)?.name ?? code;
  const audience = brand.audience ?? {};
  const social = SOCIAL_NETWORKS.filter((network) => brand.social?.[network]);
  const contact = brand.contact;
  const requestText = relation.waitMessage ?? requestStateText(relation.requestState);

  const toggleSave = () => {
    relationChange.mutate({ kind: 'save', saved: !relation.saved });
  };

  const restore = () => {
    relationChange.mutate({ kind: 'restore' });
  };

  return (
    <div className="brand-page">
      {back}
      <article className="card brand-profile" aria-labelledby={titleId}>
        <header className="brand-profile__header">
          <BrandLogo name={brand.name} logoUrl={brand.logoUrl} masked={masked} size="lg" />
          <div className="brand-profile__who">
            <h1 id={titleId} className={masked ? 'page-title brand-name brand-name--masked' : 'page-title brand-name'}>
              {brand.name}
            </h1>
            {masked && <MaskedNameHint showingBrandNames={dashboard.data?.showingBrandNames !== false} />}
            <p className="muted brand-profile__meta">{[brand.category, brand.companySize && `${brand.companySize} people`, brand.audienceSize && `audience ${brand.audienceSize}`].filter(Boolean).join(' · ')}</p>
            {brand.replyLabels && brand.replyLabels.length > 0 && (
              <p className="muted brand-profile__reply">{brand.replyLabels.join(' · ')}</p>
            )}
            {brand.website && (
              <a href={brand.website} target="_blank" rel="noopener noreferrer" className="brand-profile__website">
                {brand.website.replace(/^https?:\/\//, '')}
                <span className="visually-hidden"> (opens in a new tab)</span>
              </a>
            )}
          </div>
        </header>

        {view.isOwn && (
          <Alert tone="info" title="This is your brand">
            This is how other brands see it. <Link to={`${BRAND_PROFILE_PATH}?brand=${brand.id}`}>Edit your brand profile</Link>
          </Alert>
        )}

        {relation.dismissed && (
          <div className="undo-bar" role="status">
            <span>You dismissed this brand, so it isn't suggested to you.</span>
            <Button variant="secondary" busy={changing === 'restore'} onClick={restore}>
              Bring it back
            </Button>
          </div>
        )}

        {!view.isOwn && (
          <div className="brand-profile__actions" id="send-request">
            {canRequest(view) && (
              <SendRequestButton
                brand={brand}
                onSent={(requestId) => {
                  setRelation({ requestState: 'requested-out', requestId });
                }}
              />
            )}
            {suspended && canRequest(view) && <p className="request-state">{SUSPENDED_NO_SEND}</p>}
            {requestText && <p className="request-state">{requestText}</p>}
            {/* The same propose flow as from Connections; a feature-only account has no collaborations. */}
            {relation.requestState === 'connected' && !featureOnly && (
              <Link className="button button--primary" to={`/collaborations/new?with=${encodeURIComponent(String(brand.id))}`}>
                Plan a collaboration<span className="visually-hidden"> with {brand.name}</span>
              </Link>
            )}
            <Button variant="secondary" busy={changing === 'save'} onClick={toggleSave}>
              {relation.saved ? 'Unsave' : 'Save'}
              <span className="visually-hidden"> {brand.name}</span>
            </Button>
          </div>
        )}

        {match && (
          <section className="brand-profile__section" aria-label="How you fit">
            <h2 className="section-title">How you fit</h2>
            <FitMeter fit={match.fit} promise={match.fitPromise} />
            <p className="muted small">The label says how well your brands suit each other, both ways.</p>
            {match.reasons.length > 0 && (
              <ul className="reasons">
                {match.reasons.map((reason) => (
                  <li key={reason}>{reason}</li>
                ))}
              </ul>
            )}
          </section>
        )}

        {brand.description && (
          <section className="brand-profile__section" aria-label="About">
            <h2 className="section-title">About</h2>
            <p className="brand-profile__description">{brand.description}</p>
          </section>
        )}

        <section className="brand-profile__section" aria-label="Details">
          <h2 className="section-title">Details</h2>
          <dl className="brand-facts">
            <Detail label="Niche">{givenOr(brand.niche)}</Detail>
            <Detail label="Price tier">{givenOr(brand.priceTier)}</Detail>
            {(audience.ageBands?.length ?? 0) > 0 && <Detail label="Audience ages">{audience.ageBands?.join(', ')}</Detail>}
            {(audience.genders?.length ?? 0) > 0 && <Detail label="Audience">{audience.genders?.join(', ')}</Detail>}
            {(audience.countries?.length ?? 0) > 0 && (
              <Detail label="Markets">{audience.countries?.map(countryName).join(', ')}</Detail>
            )}
            {brand.values.length > 0 && (
              <Detail label="Values">
                <Chips items={brand.values} />
              </Detail>
            )}
            {brand.collabKinds.length > 0 && (
              <Detail label="Collaborations wanted">
                <Chips items={brand.collabKinds} />
              </Detail>
            )}
            {social.length > 0 && (
              <Detail label="Social">
                <ul className="link-list">
                  {social.map((network) => (
                    <li key={network}>
                      <a href={brand.social?.[network] ?? undefined} target="_blank" rel="noopener noreferrer">
                        {SOCIAL_LABELS[network]}
                        <span className="visually-hidden"> (opens in a new tab)</span>
                      </a>
                    </li>
                  ))}
                </ul>
              </Detail>
            )}
          </dl>
        </section>

        {contact && [contact.name, contact.email, contact.phone].some(Boolean) && (
          <section className="brand-profile__section" aria-label="Contact">
            <h2 className="section-title">Contact</h2>
            <p className="muted small">
              {view.isOwn ? 'Only brands you are connected with see these.' : "You see these because you're connected."}
            </p>
            <dl className="brand-facts">
              {contact.name && <Detail label="Name">{contact.name}</Detail>}
              {contact.email && (
                <Detail label="Email">
                  <a href={`mailto:${contact.email}`}>{contact.email}</a>
                </Detail>
              )}
              {contact.phone && (
                <Detail label="Phone">
                  <a href={`tel:${contact.phone}`}>{contact.phone}</a>
                </Detail>
              )}
            </dl>
          </section>
        )}
        {!view.isOwn && (
          <section className="brand-profile__section brand-profile__trust" aria-label="Safety">
            <TrustActions brandId={brand.id} brandName={brand.name} onBlocked={() => void navigate('/matches', { replace: true })} />
          </section>
        )}
      </article>
    </div>
  );
}

export function MatchBrandPage() {
  return <BrandDetailPage mode="match" />;
}

export function PublicBrandPage() {
  return <BrandDetailPage mode="public" />;
}

import { Link, useSearchParams } from 'react-router';
import { LoadFailed } from '@/components/ui/ListStates';
import { PageLoader } from '@/components/ui/PageLoader';
import { useCurrentBrandId } from '@/lib/session-state';
import { useFeatureList, useMyFeatures, STATUS_LABEL, dayOf, type Feature } from '../api/pitch';
import { featurePath, NEW_FEATURE_PATH } from '../paths';
import { FeatureCard } from './FeatureCard';

/** The brand's own feature, in a line: where it stands and what to do next. */
function OwnFeatureBar({ feature }: { readonly feature: Feature | undefined }) {
  const open = feature && (feature.status === 'pending' || feature.status === 'live');
  if (!open) {
    return (
      <div className="pitch-own" role="note">
        <p>
          <strong>Feature your brand.</strong> Tell other brands what you offer and who you'd like to partner with. Brands
          pitch to you, and you choose who to connect with.
        </p>
        <Link to={NEW_FEATURE_PATH} className="button button--primary">
          Feature your brand
        </Link>
      </div>
    );
  }
  const expires = dayOf(feature.expiresAt);
  return (
    <div className="pitch-own" role="note">
      <p>
        <strong>Your feature: {STATUS_LABEL[feature.status]}.</strong>{' '}
        {feature.status === 'live'
          ? `It's in the Pitch Area until ${expires ?? 'the end of its term'}.`
          : feature.paid === false
            ? 'Pay for it to send it for approval.'
            : 'We normally approve features within 24 hours and confirm by email.'}
      </p>
      <Link to={featurePath(feature.id)} className="button button--secondary">
        View your feature
      </Link>
    </div>
  );
}

/** /pitch: the live features (newest first), filters by collaboration kind and category. */
export function PitchPage() {
  const brand = useCurrentBrandId();
  const [params, setParams] = useSearchParams();
  const filter = { kind: params.get('kind') ?? '', category: params.get('category') ?? '' };
  const list = useFeatureList(brand, filter);
  const mine = useMyFeatures(brand);
  const options = list.data?.options ?? mine.data?.options;
  const features = list.data?.features ?? [];
  const filtered = filter.kind !== '' || filter.category !== '';

  const setFilter = (name: 'kind' | 'category', value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    setParams(next, { replace: true });
  };

  return (
    <div className="pitch">
      <header className="page-header">
        <div>
          <h1 className="page-title">Pitch Area</h1>
          <p className="page-header__lead">Brands looking for partners right now. Pitch to the ones you'd like to work with.</p>
        </div>
      </header>

      {mine.data && <OwnFeatureBar feature={mine.data.features[0]} />}

      <div className="pitch__filters" role="search" aria-label="Filter features">
        <label className="field field--inline">
          <span className="field__label">Collaboration</span>
          <select
            className="field__input"
            value={filter.kind}
            onChange={(event) => {
              setFilter('kind', event.target.value);
            }}
          >
            <option value="">Any kind</option>
            {options?.collabKinds.map((kind) => (
              <option key={kind} value={kind}>
                {kind}
              </option>
            ))}
          </select>
        </label>
        <label className="field field--inline">
          <span className="field__label">Category</span>
          <select
            className="field__input"
            value={filter.category}
            onChange={(event) => {
              setFilter('category', event.target.value);
            }}
          >
            <option value="">Any category</option>
            {options?.categories.map((category) => (
              <option key={category} value={category}>
                {category}
              </option>
            ))}
          </select>
        </label>
      </div>

      {list.isError && (
        <LoadFailed
          title="We couldn't load the Pitch Area"
          error={list.error}
          retry={() => {
            void list.refetch();
          }}
        />
      )}
      {list.isPending && <PageLoader />}
      {list.isSuccess && features.length === 0 && (
        <div className="empty-state">
          <h2>{filtered ? 'No features match these filters' : 'No features yet'}</h2>
          <p className="muted">
            {filtered ? 'Try another kind of collaboration or category.' : 'Be the first: feature your brand and let partners come to you.'}
          </p>
        </div>
      )}
      {features.length > 0 && (
        <h2 id="live-features" className="visually-hidden">
          Live features
        </h2>
      )}
      {features.length > 0 && (
        <ul className="match-grid pitch__grid" aria-labelledby="live-features">
          {features.map((feature) => (
            <li key={feature.id}>
              <FeatureCard feature={feature} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

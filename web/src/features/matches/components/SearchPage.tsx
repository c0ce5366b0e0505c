import { useEffect, useLayoutEffect, useRef, type SubmitEvent } from 'react';
import { Link, useLocation, useParams, useSearchParams } from 'react-router';
import { Alert } from '@/components/ui/Alert';
import { Button } from '@/components/ui/Button';
import { PageLoader } from '@/components/ui/PageLoader';
import { useBrandOptions, usePathBrand } from '@/features/brands';
import { useCurrentBrandId, useDashboard } from '@/lib/session-state';
import { openSubscriptionOverlay } from '@/features/subscriptions';
import { describeError } from '@/lib/api';
import {
  MAX_QUERY,
  SORTS,
  searchParamsOf,
  searchQueryString,
  useBrandSearch,
  useKeepSearchViews,
  useSaveFromSearch,
  type SearchField,
  type SearchParams,
} from '../api/search';
import { listPath, matchDetailPath, searchPath } from '../utils';
import { MatchCard } from './MatchCard';
import { MatchesHeader, Tab } from './MatchesPage';

const scrollKey = (key: string) => `tandem.search.scroll.${key}`;

/**
 * Keeps the window's scroll position with this history entry, and puts it back when the
 * member comes back to it (the back button) once the results are there again.
 */
function useScrollMemory(ready: boolean) {
  const { key } = useLocation();
  const restored = useRef<string | null>(null);
  useLayoutEffect(() => {
    if (!ready || restored.current === key) return;
    restored.current = key;
    const saved = Number(sessionStorage.getItem(scrollKey(key)));
    if (saved > 0) window.scrollTo(0, saved);
  }, [ready, key]);
  useEffect(() => {
    let frame = 0;
    const remember = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => {
        sessionStorage.setItem(scrollKey(key), String(window.scrollY));
      });
    };
    window.addEventListener('scroll', remember, { passive: true });
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('scroll', remember);
    };
  }, [key]);
}

/** The Search tab of Matches: the whole directory, by name and filters, as the same cards. */
export function SearchPage() {
  const { userBrand } = useParams();
  const [address, setAddress] = useSearchParams();
  const params = searchParamsOf(address);
  const query = searchQueryString(params);
  const pathBrand = usePathBrand(userBrand);
  const brandId = useCurrentBrandId();
  const dashboard = useDashboard();
  const options = useBrandOptions();
  const canLoad = pathBrand.ready && brandId !== null;
  const search = useBrandSearch(canLoad ? brandId : null, query);
  const pages = search.data?.pages ?? [];
  const results = pages.flatMap((page) => page.matches);
  const first = pages[0];
  const showingBrandNames = first?.showingBrandNames ?? true;
  useScrollMemory(search.isSuccess);
  useKeepSearchViews(canLoad ? brandId : null, pages);

  const go = (next: SearchParams) => {
    setAddress(searchQueryString(next));
  };
  const setField = (field: SearchField, value: string) => {
    go({ ...params, [field]: value || undefined });
  };
  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const typed = new FormData(event.currentTarget).get('q');
    go({ ...params, q: (typeof typed === 'string' ? typed.trim() : '') || undefined });
  };

  const save = useSaveFromSearch(brandId);

  const filtered = Object.keys(params).some((field) => field !== 'sort');
  const choices = options.data;

  return (
    <div className="matches matches--search">
      <MatchesHeader brandName={dashboard.data?.dashboard?.brandName} />

      {pathBrand.notYours && (
        <Alert tone="info" title="That link is for another brand">
          It names a brand you don't manage, so you're searching as {dashboard.data?.dashboard?.brandName ?? 'your brand'}.
        </Alert>
      )}

      <nav className="tabs" aria-label="Match lists">
        <Tab to={listPath('potentials', userBrand)} current={false} label="Potentials">
          {null}
        </Tab>
        <Tab to={listPath('saved', userBrand)} current={false} label="Saved">
          {null}
        </Tab>
        <Tab to={searchPath(userBrand)} current label="Search">
          {null}
        </Tab>
      </nav>

      <form className="search-form card" role="search" aria-label="Search brands" onSubmit={submit}>
        <div className="search-form__box">
          <label className="visually-hidden" htmlFor="brand-search-q">
            Search brands by name or what they do
          </label>
          {/* Keyed by the search in the address: back, forward or a link puts its words back. */}
          <input
            key={params.q ?? ''}
            id="brand-search-q"
            className="field__input"
            type="search"
            name="q"
            defaultValue={params.q ?? ''}
            maxLength={MAX_QUERY}
            placeholder={showingBrandNames ? 'Name, category or value' : 'Category or value'}
          />
          <Button type="submit" variant="primary">
            Search
          </Button>
        </div>
        <div className="search-form__filters">
          <Filter label="Category" field="category" value={params.category} choices={choices?.categories} onChange={setField} />
          <Filter
            label="Country"
            field="country"
            value={params.country}
            choices={choices?.countries.map((country) => ({ value: country.code, label: country.name }))}
            onChange={setField}
          />
          <Filter label="Audience size" field="audienceSize" value={params.audienceSize} choices={choices?.audienceSizes} onChange={setField} />
          <Filter label="Audience age" field="age" value={params.age} choices={choices?.ageBands} onChange={setField} />
          <Filter label="Audience gender" field="gender" value={params.gender} choices={choices?.genders} onChange={setField} />
          <Filter label="Collab type" field="collabType" value={params.collabType} choices={choices?.collabKinds} onChange={setField} />
          <label className="search-form__open">
            <input
              type="checkbox"
              checked={params.open === 'true'}
              onChange={(event) => {
                setField('open', event.target.checked ? 'true' : '');
              }}
            />{' '}
            Open to requests now
          </label>
          <label className="field search-form__sort">
            <span className="field__label">Sort by</span>
            <select
              className="field__input"
              value={params.sort ?? 'best'}
              onChange={(event) => {
                setField('sort', event.target.value === 'best' ? '' : event.target.value);
              }}
            >
              {SORTS.map((sort) => (
                <option key={sort.value} value={sort.value}>
                  {sort.label}
                </option>
              ))}
            </select>
          </label>
        </div>
        {filtered && (
          <p className="search-form__clear small">
            <Link to={searchPath(userBrand)}>Clear search and filters</Link>
          </p>
        )}
      </form>

      {!showingBrandNames && (
        <div className="matches__notice" role="note">
          <p>
            <strong>Brand names are hidden.</strong> Members with a subscription see every brand's name and can search by
            name.
          </p>
          <Button
            variant="secondary"
            onClick={() => {
              openSubscriptionOverlay({ reason: 'no_subscription', type: 'matches' });
            }}
          >
            See subscriptions
          </Button>
        </div>
      )}

      {search.isError && (
        <Alert title="We couldn't search the directory">
          <p>{describeError(search.error)}</p>
          <Button
            variant="secondary"
            className="alert__action"
            onClick={() => {
              void search.refetch();
            }}
          >
            Try again
          </Button>
        </Alert>
      )}

      {search.isPending && canLoad && <PageLoader inline />}

      {first && (
        <p className="search-results__count" role="status">
          {first.total === 1 ? '1 brand found' : `${first.total.toLocaleString('en-GB')} brands found`}
        </p>
      )}

      {search.isSuccess && results.length === 0 && (
        <section className="card empty-state" aria-label="No brands found">
          <h2 className="card__subtitle">No brands match your search</h2>
          <p className="muted">
            Check the spelling, try fewer words, or loosen a filter.
            {!showingBrandNames && ' Searching by brand name needs a subscription.'}
          </p>
          {filtered && (
            <Link to={searchPath(userBrand)} className="button button--secondary">
              Clear search and filters
            </Link>
          )}
        </section>
      )}

      {/* The cards' names are h3s: their section's h2 comes first (axe heading-order). */}
      {results.length > 0 && <h2 className="visually-hidden">Search results</h2>}
      {results.length > 0 && (
        <ul className="match-grid" aria-label="Search results">
          {results.map((match) => (
            <li key={match.id}>
              <MatchCard
                match={match}
                showingBrandNames={showingBrandNames}
                detailPath={matchDetailPath(match.id, userBrand)}
                onToggleSave={(card) => {
                  save.mutate(card);
                }}
                saving={save.isPending && save.variables.id === match.id}
              />
            </li>
          ))}
        </ul>
      )}

      {search.hasNextPage && (
        <div className="search-results__more">
          <Button
            variant="secondary"
            busy={search.isFetchingNextPage}
            onClick={() => {
              void search.fetchNextPage();
            }}
          >
            Show more brands
          </Button>
        </div>
      )}
    </div>
  );
}

type Choice = string | { readonly value: string; readonly label: string };

interface FilterProps {
  readonly label: string;
  readonly field: SearchField;
  readonly value: string | undefined;
  readonly choices: readonly Choice[] | undefined;
  readonly onChange: (field: SearchField, value: string) => void;
}

function Filter({ label, field, value, choices, onChange }: FilterProps) {
  return (
    <label className="field">
      <span className="field__label">{label}</span>
      <select
        className="field__input"
        value={value ?? ''}
        onChange={(event) => {
          onChange(field, event.target.value);
        }}
      >
        <option value="">Any</option>
        {(choices ?? []).map((choice) => {
          const option = typeof choice === 'string' ? { value: choice, label: choice } : choice;
          return (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          );
        })}
        {value && !(choices ?? []).some((choice) => (typeof choice === 'string' ? choice : choice.value) === value) && (
          <option value={value}>{value}</option>
        )}
      </select>
    </label>
  );
}

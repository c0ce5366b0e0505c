import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Link, useLocation, useParams } from 'react-router';
import { Alert } from '@/components/ui/Alert';
import { Button } from '@/components/ui/Button';
import { PageLoader } from '@/components/ui/PageLoader';
import { usePathBrand } from '@/features/brands';
import { useCurrentBrandId, useDashboard } from '@/features/dashboard';
import { BRAND_PROFILE_PATH } from '@/features/navigation';
import { openSubscriptionOverlay } from '@/features/subscriptions';
import { describeError, SessionEndedError } from '@/lib/api';
import { showToast } from '@/lib/toast';
import { findNewMatches, useMatchRun } from '../api/match-run';
import { useMatchChange, usePendingMatchChanges } from '../api/match-changes';
import { matchKeys } from '../api/keys';
import {
  parseBrandIds,
  updateMatchLists,
  useMatchLists,
  type MatchCard as Match,
  type MatchList,
} from '../api/matches';
import { listOfPath, listPath, matchDetailPath } from '../utils';
import { MatchCard } from './MatchCard';

interface Dismissed {
  /** The lists it was dismissed from (brand and filter). */
  readonly key: string;
  readonly match: Match;
  readonly potentialsIndex: number;
  readonly savedIndex: number;
}

function without(list: readonly Match[], id: number): Match[] {
  return list.filter((item) => item.id !== id);
}

export function MatchesPage({ list }: { readonly list: MatchList }) {
  const { userBrand, brandIds: rawIds } = useParams();
  const filter = useMemo(() => parseBrandIds(rawIds), [rawIds]);
  const pathBrand = usePathBrand(userBrand);
  const brandId = useCurrentBrandId();
  const run = useMatchRun(brandId);
  const dashboard = useDashboard();
  const client = useQueryClient();
  const hasNoBrand = dashboard.data?.userBrands?.length === 0;
  const brandName = dashboard.data?.dashboard?.brandName;

  const change = useMatchChange(brandId);
  const pending = usePendingMatchChanges(brandId);
  const [dismissed, setDismissedMatch] = useState<Dismissed | null>(null);
  const [starting, setStarting] = useState(false);
  const undoRef = useRef<HTMLButtonElement>(null);

  const canLoad = pathBrand.ready && brandId !== null && !hasNoBrand;
  // When a run of this brand ends, the run watcher asks for these lists again.
  const lists = useMatchLists(canLoad ? brandId : null, filter);
  const key = canLoad ? `${brandId}|${filter.join(',')}` : null;
  const loaded = lists.data ?? null;
  const status = lists.isError ? 'error' : lists.isSuccess && !lists.isFetching ? 'success' : 'loading';
  const potentials = loaded?.potentials ?? [];
  const saved = loaded?.saved ?? [];
  const showingBrandNames = loaded?.showingBrandNames ?? true;
  const undo = dismissed?.key === key ? dismissed : null;

  // The dismissed card is gone: focus moves to its Undo, once the bar is on screen.
  const undoShown = undo?.match.id ?? null;
  useEffect(() => {
    if (undoShown !== null) undoRef.current?.focus();
  }, [undoShown]);

  const shown = list === 'saved' ? saved : potentials;
  const running = run !== null;

  const undoing = [...pending.values()].includes('restore');

  // Each change shows at once and is put back, with a toast, if the server refuses it
  // (api/match-changes.ts); what follows a success waits for it.
  const toggleSave = (match: Match) => {
    change.mutate({ kind: 'save', match, saved: !match.saved });
  };

  const dismiss = async (match: Match) => {
    if (key === null) return;
    const place: Dismissed = {
      key,
      match,
      potentialsIndex: potentials.findIndex((item) => item.id === match.id),
      savedIndex: saved.findIndex((item) => item.id === match.id),
    };
    try {
      await change.mutateAsync({ kind: 'dismiss', match });
    } catch {
      return; // the member was told, and the card is back
    }
    setDismissedMatch(place);
  };

  const undoDismiss = async () => {
    if (!undo) return;
    const { match, potentialsIndex, savedIndex } = undo;
    try {
      await change.mutateAsync({ kind: 'restore', match, potentialsIndex, savedIndex });
    } catch {
      return; // told in a toast; the bar stays, to try again
    }
    setDismissedMatch(null);
    showToast({ tone: 'success', title: 'Back in your matches', message: match.name });
  };

  // A requested brand leaves Potentials (the server no longer suggests it); a load on its way
  // may have read the lists before the request, so they are asked for again.
  const requested = (match: Match) => {
    if (brandId === null) return;
    updateMatchLists(client, brandId, (lists) => ({
      ...lists,
      potentials: without(lists.potentials, match.id),
      saved: without(lists.saved, match.id),
    }));
    void client.invalidateQueries({ queryKey: matchKeys.allLists(brandId) });
  };

  const startRun = async () => {
    if (brandId === null) return;
    setStarting(true);
    try {
      await findNewMatches(client, brandId, () => brandId);
    } catch (error) {
      if (!(error instanceof SessionEndedError)) {
        showToast({ tone: 'error', title: 'Could not find new matches', message: describeError(error) });
      }
    } finally {
      setStarting(false);
    }
  };

  if (hasNoBrand) {
    return (
      <div className="matches">
        <MatchesHeader brandName={undefined} />
        <EmptyState title="Add your brand first">
          <p>Tell us about your brand and we'll suggest partners that fit it, with the reasons why.</p>
          <Link to={`${BRAND_PROFILE_PATH}?brand=new`} className="button button--primary">
            Add your brand
          </Link>
        </EmptyState>
      </div>
    );
  }

  return (
    <div className="matches">
      <MatchesHeader brandName={brandName}>
        <Button variant="secondary" busy={starting || running} disabled={brandId === null} onClick={() => void startRun()}>
          {running ? 'Finding matches…' : 'Find new matches'}
        </Button>
      </MatchesHeader>

      {pathBrand.notYours && (
        <Alert tone="info" title="That link is for another brand">
          It names a brand you don't manage, so you're seeing matches for {brandName ?? 'your brand'}.
        </Alert>
      )}

      {run && (
        <Alert tone="info" title="Finding new matches">
          {run.message || "We're finding brands that fit you. This usually takes under a minute."}
        </Alert>
      )}

      {!showingBrandNames && dashboard.data?.showingBrandNamesGlobal !== false && shown.some((match) => !match.nameVisible) && (
        <div className="matches__notice" role="note">
          <p>
            <strong>Some brand names are hidden.</strong> Members with a subscription see every brand's name in
            Matches.
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

      {dashboard.data?.brandInfoPublic === false && (
        <p className="matches__own-visibility muted small">
          Your brand name is hidden from other brands in Matches.{' '}
          <Link to={BRAND_PROFILE_PATH}>Change this in your brand settings</Link>.
        </p>
      )}

      <nav className="tabs" aria-label="Match lists">
        <Tab to={listPath('potentials', userBrand)} current={list === 'potentials'} label="Potentials">
          {loaded ? potentials.length : null}
        </Tab>
        <Tab to={listPath('saved', userBrand)} current={list === 'saved'} label="Saved">
          {loaded ? saved.length : null}
        </Tab>
      </nav>

      {filter.length > 0 && (
        <div className="matches__filter" role="note">
          <span>
            Showing {filter.length === 1 ? '1 chosen brand' : `${filter.length} chosen brands`}.
          </span>
          <Link to="/matches">Show all matches</Link>
        </div>
      )}

      {undo && (
        <div className="undo-bar" role="status">
          <span>
            You dismissed <strong>{undo.match.name}</strong>. It won't be suggested again.
          </span>
          <div className="undo-bar__actions">
            <Button ref={undoRef} variant="secondary" busy={undoing} onClick={() => void undoDismiss()}>
              Undo
            </Button>
            <button
              type="button"
              className="link-button"
              onClick={() => {
                setDismissedMatch(null);
              }}
            >
              Hide<span className="visually-hidden"> this message</span>
            </button>
          </div>
        </div>
      )}

      {status === 'error' && !(lists.error instanceof SessionEndedError) && (
        <Alert title="We couldn't load your matches">
          <p>{describeError(lists.error)}</p>
          <Button
            variant="secondary"
            className="alert__action"
            onClick={() => {
              void lists.refetch();
            }}
          >
            Try again
          </Button>
        </Alert>
      )}

      {status === 'loading' && loaded === null && <PageLoader inline />}

      {status === 'success' && shown.length === 0 && (
        <ListEmpty
          list={list}
          filtered={filter.length > 0}
          running={running}
          userBrand={userBrand}
          onFind={() => void startRun()}
          finding={starting}
        />
      )}

      <h2 className="visually-hidden">{list === 'saved' ? 'Saved matches' : 'Potential matches'}</h2>
      {shown.length > 0 && (
        <ul className="match-grid" aria-label={list === 'saved' ? 'Saved matches' : 'Potential matches'} aria-busy={status === 'loading'}>
          {shown.map((match) => (
            <li key={match.id}>
              <MatchCard
                match={match}
                showingBrandNames={showingBrandNames}
                detailPath={matchDetailPath(match.id, userBrand)}
                onToggleSave={toggleSave}
                onDismiss={(item) => void dismiss(item)}
                onRequested={requested}
                saving={pending.get(match.id) === 'save'}
                dismissing={pending.get(match.id) === 'dismiss'}
              />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function Tab({ to, current, label, children: count }: { readonly to: string; readonly current: boolean; readonly label: string; readonly children: number | null }) {
  return (
    <Link to={to} className={current ? 'tabs__tab tabs__tab--current' : 'tabs__tab'} aria-current={current ? 'page' : undefined}>
      {label}
      {count !== null && <span className="tabs__count"> {count}</span>}
    </Link>
  );
}

function MatchesHeader({ brandName, children }: { readonly brandName: string | undefined; readonly children?: ReactNode }) {
  return (
    <header className="page-header matches__header">
      <div>
        <h1 className="page-title">Matches</h1>
        <p className="page-header__lead">
          {brandName ? (
            <>
              Brands that fit <strong>{brandName}</strong>, and why.
            </>
          ) : (
            'Brands that fit yours, and why.'
          )}
        </p>
      </div>
      {children}
    </header>
  );
}

function EmptyState({ title, children }: { readonly title: string; readonly children: ReactNode }) {
  return (
    <section className="card empty-state" aria-label={title}>
      <h2 className="card__subtitle">{title}</h2>
      {children}
    </section>
  );
}

interface ListEmptyProps {
  readonly list: MatchList;
  readonly filtered: boolean;
  readonly running: boolean;
  readonly userBrand: string | undefined;
  readonly onFind: () => void;
  readonly finding: boolean;
}

function ListEmpty({ list, filtered, running, userBrand, onFind, finding }: ListEmptyProps) {
  if (filtered) {
    return (
      <EmptyState title="None of these brands are in your matches">
        <p className="muted">They may have been dismissed, requested or connected already.</p>
        <Link to="/matches" className="button button--secondary">
          Show all matches
        </Link>
      </EmptyState>
    );
  }
  if (list === 'saved') {
    return (
      <EmptyState title="No saved matches yet">
        <p className="muted">Save the brands you like in Potentials to come back to them here.</p>
        <Link to={listPath('potentials', userBrand)} className="button button--secondary">
          See potential matches
        </Link>
      </EmptyState>
    );
  }
  if (running) {
    return (
      <EmptyState title="Your matches are on the way">
        <p className="muted">We're comparing your brand with every brand on Tandem. This page updates by itself.</p>
      </EmptyState>
    );
  }
  return (
    <EmptyState title="No matches yet">
      <p className="muted">
        Complete your brand profile so we can find partners: your audience, values and the kinds of collaboration
        you want make the biggest difference.
      </p>
      <div className="actions">
        <Link to={BRAND_PROFILE_PATH} className="button button--primary">
          Complete your brand profile
        </Link>
        <Button variant="secondary" busy={finding} onClick={onFind}>
          Find new matches
        </Button>
      </div>
    </EmptyState>
  );
}

/** Every Matches list route: one component, so switching tabs keeps the loaded lists. */
export function MatchesRoute() {
  const { pathname } = useLocation();
  return <MatchesPage list={listOfPath(pathname)} />;
}

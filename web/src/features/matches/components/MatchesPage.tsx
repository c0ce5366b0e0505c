import { useQueryClient } from '@tanstack/react-query';
import { useMemo, type ReactNode } from 'react';
import { Link, useLocation, useParams } from 'react-router';
import { Alert } from '@/components/ui/Alert';
import { Button } from '@/components/ui/Button';
import { LoadFailed } from '@/components/ui/ListStates';
import { PageLoader } from '@/components/ui/PageLoader';
import { usePathBrand } from '@/features/brands';
import { useCurrentBrandId, useDashboard } from '@/lib/session-state';
import { BRAND_PROFILE_PATH } from '@/features/navigation';
import { openSubscriptionOverlay } from '@/features/subscriptions';
import { useFindNewMatches, useMatchRun } from '../api/match-run';
import { matchRequested, parseBrandIds, useMatchLists, type MatchCard as Match, type MatchList } from '../api/matches';
import { useMatchActions } from '../hooks/use-match-actions';
import { listOfPath, listPath, matchDetailPath, searchPath } from '../utils';
import { MatchCard } from './MatchCard';
import { UndoBar } from './UndoBar';

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

  const find = useFindNewMatches(brandId);

  const canLoad = pathBrand.ready && brandId !== null && !hasNoBrand;
  // When a run of this brand ends, the run watcher asks for these lists again.
  const lists = useMatchLists(canLoad ? brandId : null, filter);
  const key = canLoad ? `${brandId}|${filter.join(',')}` : null;
  const loaded = lists.data ?? null;
  const status = lists.isError ? 'error' : lists.isSuccess && !lists.isFetching ? 'success' : 'loading';
  const potentials = loaded?.potentials ?? [];
  const saved = loaded?.saved ?? [];
  const showingBrandNames = loaded?.showingBrandNames ?? true;
  const actions = useMatchActions(brandId, key, { potentials, saved });
  const { undo } = actions;

  const shown = list === 'saved' ? saved : potentials;
  const running = run !== null;
  const starting = find.isPending;

  // A requested brand leaves Potentials (the server no longer suggests it).
  const requested = (match: Match) => {
    if (brandId !== null) matchRequested(client, brandId, match.id);
  };

  const startRun = () => {
    if (brandId !== null) find.mutate();
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
        <Button variant="secondary" busy={starting || running} disabled={brandId === null} onClick={startRun}>
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
        <Tab to={searchPath(userBrand)} current={false} label="Search">
          {null}
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
        <UndoBar matchId={undo.match.id} name={undo.match.name} busy={actions.undoing} onUndo={actions.undoDismiss} onHide={actions.hideUndo} />
      )}

      {status === 'error' && (
        <LoadFailed title="We couldn't load your matches" error={lists.error} retry={() => void lists.refetch()} />
      )}

      {status === 'loading' && loaded === null && <PageLoader inline />}

      {status === 'success' && shown.length === 0 && (
        <ListEmpty
          list={list}
          filtered={filter.length > 0}
          running={running}
          userBrand={userBrand}
          onFind={startRun}
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
                onToggleSave={actions.toggleSave}
                onDismiss={actions.dismiss}
                onRequested={requested}
                saving={actions.pending.get(match.id) === 'save'}
                dismissing={actions.pending.get(match.id) === 'dismiss'}
              />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function Tab({ to, current, label, children: count }: { readonly to: string; readonly current: boolean; readonly label: string; readonly children: number | null }) {
  return (
    <Link to={to} className={current ? 'tabs__tab tabs__tab--current' : 'tabs__tab'} aria-current={current ? 'page' : undefined}>
      {label}
      {count !== null && <span className="tabs__count"> {count}</span>}
    </Link>
  );
}

export function MatchesHeader({ brandName, children }: { readonly brandName: string | undefined; readonly children?: ReactNode }) {
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

import { useInfiniteQuery } from '@tanstack/react-query';
import { Link, useLocation, useParams } from 'react-router';
import { PagedSection, UnknownBrand } from '@/components/ui/ListStates';
import { menuCountsOf, useDashboard } from '@/lib/session-state';
import { ListTabs } from './ListTabs';
import { RequestCard } from './RequestCard';
import { useRouteBrand } from '../hooks/use-route-brand';
import { useSeenRefresh } from '../hooks/use-seen-refresh';
import { declineListQuery, type DeclineDirection } from '../api/declines';
import type { RequestItem } from '../api/requests';
import { declinesPath, directionOf } from '../paths';

interface DeclinesCopy {
  label: string;
  lead: string;
  emptyTitle: string;
  emptyText: string;
  /** Requests that expired unanswered share the list with declines (the API's box), listed apart. */
  expiredLabel: string;
  expiredText: string;
}

const COPY: Record<DeclineDirection, DeclinesCopy> = {
  out: {
    label: 'Declined by others',
    lead: "Requests you sent that the other brand declined or didn't answer within 14 days. The credit comes back if that happened within the same subscription month.",
    emptyTitle: 'None of your requests were declined',
    emptyText: "When a brand declines a request of yours, you'll see it here.",
    expiredLabel: 'Expired unanswered',
    expiredText: "These brands didn't reply within 14 days, so your requests expired. They did not decline them.",
  },
  in: {
    label: 'Declined by you',
    lead: "Requests you received and declined, and the ones you didn't answer within 14 days.",
    emptyTitle: "You haven't declined any requests",
    emptyText: 'Requests you decline are kept here.',
    expiredLabel: 'Expired unanswered',
    expiredText: "You didn't answer these within 14 days, so they expired. The sender was told the request expired, not that you declined it.",
  },
};

/** The page's items: declined ones under the tab's name, expired ones apart (each with its heading). */
function DeclineLists({ items, copy }: { readonly items: readonly RequestItem[]; readonly copy: DeclinesCopy }) {
  const expired = items.filter((item) => item.status === 'expired');
  const declined = items.filter((item) => item.status !== 'expired');
  const cards = (list: readonly RequestItem[], label: string, heading: 'h2' | 'h3') => (
    <ul className="card-list" aria-label={label}>
      {list.map((item) => (
        <li key={item.id}>
          <RequestCard item={item} actions={false} headingLevel={heading} />
        </li>
      ))}
    </ul>
  );
  if (expired.length === 0) return cards(declined, copy.label, 'h2');
  return (
    <>
      {declined.length > 0 && (
        <section className="declines__group" aria-labelledby="declines-declined">
          <h2 id="declines-declined" className="declines__heading">
            Declined
          </h2>
          {cards(declined, copy.label, 'h3')}
        </section>
      )}
      <section className="declines__group" aria-labelledby="declines-expired">
        <h2 id="declines-expired" className="declines__heading">
          {copy.expiredLabel}
        </h2>
        <p className="muted">{copy.expiredText}</p>
        {cards(expired, copy.expiredLabel, 'h3')}
      </section>
    </>
  );
}

/** Declines (SPEC section 2): two lists, per brand when the address names one. */
export function DeclinesPage() {
  const { userBrand } = useParams();
  const dir = directionOf(useLocation().pathname);
  const counts = menuCountsOf(useDashboard().data);
  const route = useRouteBrand(userBrand, (brand) => declinesPath(dir, brand));
  const list = useInfiniteQuery({
    ...declineListQuery(route.status === 'ready' ? route.brand : '', dir),
    enabled: route.status === 'ready',
  });
  // Listing marks new declines as seen: the menu count drops.
  useSeenRefresh(list, dir === 'out' && counts.declines > 0);

  const tabs = (['out', 'in'] as const).map((id) => ({
    id,
    label: COPY[id].label,
    to: declinesPath(id, userBrand),
    count: id === 'out' ? counts.declines : undefined,
  }));

  return (
    <div className="requests-page">
      <header className="page-header">
        <h1 className="page-title">Declines</h1>
        <p className="page-header__lead">{COPY[dir].lead}</p>
      </header>
      <ListTabs label="Decline lists" tabs={tabs} current={dir} />
      {route.status === 'unknown' ? (
        <UnknownBrand backTo={declinesPath(dir)} backLabel="See your declines" />
      ) : (
        <PagedSection
          list={list}
          noun="declines"
          empty={
            <>
              <h2 className="empty-state__title">{COPY[dir].emptyTitle}</h2>
              <p className="muted">{COPY[dir].emptyText}</p>
              <Link to="/requests" className="button button--secondary">
                Go to Requests
              </Link>
            </>
          }
        >
          {(items) => <DeclineLists items={items} copy={COPY[dir]} />}
        </PagedSection>
      )}
    </div>
  );
}

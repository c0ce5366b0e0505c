import { Link } from 'react-router';
import { Alert } from '@/components/ui/Alert';
import { Button } from '@/components/ui/Button';
import { useIsFeatureOnly, useLoginCheck } from '@/lib/login-check';
import { describeError } from '@/lib/api';
import { useSession } from '@/lib/session';
import {
  hasHadLiveFeature,
  menuAreasOf,
  menuCountsOf,
  useDashboard,
  type MenuCounts,
} from '@/lib/session-state';
import { SuspendedNotice } from '@/features/trust';
import { greeting } from './greeting';
import { nextStep } from './next-step';

interface Stat {
  readonly key: keyof MenuCounts;
  readonly label: string;
  readonly to: string;
}

function statsFor(counts: MenuCounts, featureOnly: boolean, requestsArea: boolean): Stat[] {
  if (featureOnly) {
    return requestsArea ? [{ key: 'requests', label: 'Pitches received', to: '/requests/received' }] : [];
  }
  return [
    { key: 'matches', label: 'New matches', to: '/matches' },
    { key: 'requests', label: 'New requests', to: counts.requests > 0 ? '/requests/received' : '/requests' },
    {
      key: 'connections',
      label: 'New connections',
      to: counts.connections > 0 ? '/connections/connected' : '/connections',
    },
    { key: 'declines', label: 'Declines', to: '/declines' },
  ];
}

export function DashboardPage() {
  const session = useSession();
  const { data, error, isError, refetch } = useDashboard();
  const featureOnly = useIsFeatureOnly();
  const firstVisit = useLoginCheck().data?.showWelcome === true;
  const hasHadLive = hasHadLiveFeature(data);
  const counts = menuCountsOf(data);
  const brandName = data?.dashboard?.brandName;
  const noBrand = data?.userBrands?.length === 0;
  const requestsArea = menuAreasOf(data)?.requests === true;
  const suspended = data?.dashboard?.suspended === true;
  const step = nextStep({
    counts,
    featureOnly,
    hasHadLive,
    requestsArea,
    noBrand,
    isAdmin: session?.sessionInfo.access === 'admin',
    suspended,
  });
  const stats = noBrand ? [] : statsFor(counts, featureOnly, requestsArea);
  const loaded = data !== undefined;
  // What's new tells members about Matches and requests: not part of a feature-only account.
  const news = featureOnly ? [] : (data?.whatsNew ?? []).filter((item) => typeof item.title === 'string');

  return (
    <div className="dashboard">
      <header className="page-header">
        <h1 className="page-title">{greeting(session?.firstName, firstVisit)}</h1>
        {brandName && (
          <p className="page-header__lead">
            You're working as <strong>{brandName}</strong>.
          </p>
        )}
      </header>

      {isError && (
        <Alert title="We couldn't load your dashboard">
          <p>{describeError(error)}</p>
          <Button variant="secondary" className="alert__action" onClick={() => void refetch()}>
            Try again
          </Button>
        </Alert>
      )}

      {suspended && <SuspendedNotice brandName={brandName ?? 'Your brand'} />}

      {data?.matchRunOutstanding && (
        <Alert tone="info" title="New matches on the way">
          We're finding brands for {brandName ?? 'your brand'}. This usually takes a few minutes.
        </Alert>
      )}

      {step && (
        <section className="card next-step" aria-labelledby="next-step-title">
          <p className="next-step__eyebrow">Next step</p>
          <h2 id="next-step-title" className="card__subtitle">
            {step.title}
          </h2>
          <p className="muted">{step.text}</p>
          <Link to={step.to} className="button button--primary next-step__action">
            {step.action}
          </Link>
        </section>
      )}

      {stats.length > 0 && (
        <section aria-labelledby="activity-title">
          <h2 id="activity-title" className="section-title">
            Your activity
          </h2>
          <ul className="stat-grid" aria-busy={!loaded}>
            {stats.map((stat) => (
              <li key={stat.key}>
                <Link to={stat.to} className="stat">
                  <span className="stat__value">{loaded ? counts[stat.key] : '–'}</span>
                  <span className="stat__label">{stat.label}</span>
                </Link>
              </li>
            ))}
          </ul>
        </section>
      )}

      {news.length > 0 && (
        <section className="card" aria-labelledby="news-title">
          <h2 id="news-title" className="card__subtitle">
            What's new
          </h2>
          <ul className="news-list">
            {news.map((item) => (
              <li key={item.title}>
                <strong>{item.title}</strong>
                {item.text && <span className="muted"> {item.text}</span>}
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}

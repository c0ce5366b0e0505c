import { Link, useParams } from 'react-router';
import { PageLoader } from '@/components/ui/PageLoader';
import { useLinkAction } from '@/features/auth/components/use-link-action';
import { loginPath } from '@/lib/redirect';
import { useSession } from '@/lib/session';
import { isQuickAction, runQuickAction, type QuickActionResult } from '../api/quick-action';

const BAD_LINK = 'This link is incomplete or not one of ours. Please open the link from your email again.';

function CheckIcon() {
  return (
    <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">
      <path d="M5 12.5l4.5 4.5L19 7.5" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

function AlertIcon() {
  return (
    <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">
      <path d="M12 7.5v6M12 16.8v.2" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" />
      <circle cx="12" cy="12" r="9.5" fill="none" stroke="currentColor" strokeWidth="2" />
    </svg>
  );
}

function resultTitle(action: 'accept' | 'decline', result: QuickActionResult): string {
  const name = result.request.fromBrand.name;
  return action === 'accept' ? `You accepted ${name}'s request` : `You declined ${name}'s request`;
}

function resultLead(action: 'accept' | 'decline', result: QuickActionResult): string {
  if (result.message) return result.message;
  const name = result.request.fromBrand.name;
  return action === 'accept'
    ? `You're now connected with ${name}. We've emailed you both each other's contact details.`
    : `We've let ${name} know.`;
}

/**
 * /quick-action/{action}/{actioner}/{actionee}/{unique}: the accept / decline link
 * of a request email. It works without signing in, once: the call runs a single
 * time even when React mounts the page twice in development.
 */
export function QuickActionPage() {
  const { action, actioner = '', actionee = '', unique = '' } = useParams();
  const signedIn = useSession() !== null;
  const valid = isQuickAction(action) && actioner !== '' && actionee !== '' && unique !== '';
  const state = useLinkAction(() =>
    valid ? runQuickAction(action, actioner, actionee, unique) : Promise.reject(new Error(BAD_LINK)),
  );
  const verb = action === 'decline' ? 'decline' : 'accept';

  if (state.status === 'pending') {
    return (
      <section className="card quick-action" aria-busy="true">
        <h1 className="card__title">{verb === 'accept' ? 'Accepting the request…' : 'Declining the request…'}</h1>
        <PageLoader inline />
      </section>
    );
  }

  if (state.status === 'error') {
    const target = loginPath('/requests/received');
    return (
      <section className="card quick-action" aria-labelledby="quick-action-title">
        <span className="quick-action__icon quick-action__icon--alert">
          <AlertIcon />
        </span>
        <h1 id="quick-action-title" className="card__title">
          This link can't be used
        </h1>
        <p className="quick-action__lead" role="alert">
          {valid ? state.message : BAD_LINK}
        </p>
        <p className="muted">
          Links in our emails work once and expire after a while. You can still see the request and reply to it in
          Tandem.
        </p>
        <div className="actions">
          {signedIn ? (
            <Link to="/requests/received" className="button button--primary">
              Go to your requests
            </Link>
          ) : (
            <Link to={target} className="button button--primary">
              Sign in to reply
            </Link>
          )}
        </div>
      </section>
    );
  }

  const result = state.data;
  const next = verb === 'accept' ? '/connections/connected' : '/declines/in';
  return (
    <section className="card quick-action" aria-labelledby="quick-action-title">
      <span className="quick-action__icon">
        <CheckIcon />
      </span>
      <h1 id="quick-action-title" className="card__title">
        {resultTitle(verb, result)}
      </h1>
      <p className="quick-action__lead" role="status">
        {resultLead(verb, result)}
      </p>
      <div className="actions">
        {signedIn ? (
          <Link to={next} className="button button--primary">
            {verb === 'accept' ? 'See your connections' : 'See your declines'}
          </Link>
        ) : (
          <Link to={loginPath(next)} className="button button--primary">
            {verb === 'accept' ? 'Sign in to see their details' : 'Sign in to Tandem'}
          </Link>
        )}
      </div>
    </section>
  );
}

import { useQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import { Alert } from '@/components/ui/Alert';
import { Button } from '@/components/ui/Button';
import { PageLoader } from '@/components/ui/PageLoader';
import { BrandIdentity } from '@/features/requests';
import { ApiError, describeError } from '@/lib/api';
import { loginPath } from '@/lib/redirect';
import { useSelectedBrand, useSession } from '@/lib/session';
import { isQuickAction, quickActionPreviewQuery, runQuickAction, type QuickActionResult } from '../api/quick-action';

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

type Answer =
  | { readonly status: 'idle' }
  | { readonly status: 'sending' }
  | { readonly status: 'done'; readonly result: QuickActionResult }
  | { readonly status: 'gone'; readonly message: string }
  | { readonly status: 'failed'; readonly message: string };

function LinkError({ message, signedIn }: { readonly message: string; readonly signedIn: boolean }) {
  return (
    <section className="card quick-action" aria-labelledby="quick-action-title">
      <span className="quick-action__icon quick-action__icon--alert">
        <AlertIcon />
      </span>
      <h1 id="quick-action-title" className="card__title">
        This link can't be used
      </h1>
      <p className="quick-action__lead" role="alert">
        {message}
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
          <Link to={loginPath('/requests/received')} className="button button--primary">
            Sign in to reply
          </Link>
        )}
      </div>
    </section>
  );
}

/**
 * /quick-action/{action}/{actioner}/{actionee}/{unique}: the accept / decline link
 * of a request email. Opening it changes nothing (email scanners open links and run
 * scripts): the page checks the link, shows the request, and only the person's click
 * answers it, once, without signing in.
 */
export function QuickActionPage() {
  const { action, actioner = '', actionee = '', unique = '' } = useParams();
  const signedIn = useSession() !== null;
  const brand = useSelectedBrand();
  const valid = isQuickAction(action) && actioner !== '' && actionee !== '' && unique !== '';
  const preview = useQuery({
    ...quickActionPreviewQuery(brand, isQuickAction(action) ? action : 'accept', actioner, actionee, unique),
    enabled: valid,
  });
  const [answer, setAnswer] = useState<Answer>({ status: 'idle' });
  const sent = useRef(false);
  const verb = action === 'decline' ? 'decline' : 'accept';

  const submit = () => {
    if (!valid || sent.current) return;
    sent.current = true;
    setAnswer({ status: 'sending' });
    runQuickAction(action, actioner, actionee, unique).then(
      (result) => {
        setAnswer({ status: 'done', result });
      },
      (error: unknown) => {
        // A used, expired or forged link can't be retried; anything else (network, server) can.
        const final = error instanceof ApiError && (error.status === 400 || error.status === 410);
        if (!final) sent.current = false;
        setAnswer({ status: final ? 'gone' : 'failed', message: describeError(error) });
      },
    );
  };

  if (!valid) return <LinkError message={BAD_LINK} signedIn={signedIn} />;

  if (preview.isPending) {
    return (
      <section className="card quick-action" aria-busy="true">
        <h1 className="card__title">Checking your link…</h1>
        <PageLoader inline />
      </section>
    );
  }

  if (preview.isError) {
    return <LinkError message={describeError(preview.error)} signedIn={signedIn} />;
  }
  if (answer.status === 'gone') {
    return <LinkError message={answer.message} signedIn={signedIn} />;
  }

  if (answer.status === 'done') {
    const result = answer.result;
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

  const { fromBrand, toBrand, message } = preview.data.request;
  return (
    <section className="card quick-action" aria-labelledby="quick-action-title">
      <h1 id="quick-action-title" className="card__title">
        {verb === 'accept' ? 'Accept this request?' : 'Decline this request?'}
      </h1>
      <BrandIdentity brand={fromBrand} as="h2" />
      <p className="muted">Sent to {toBrand.name}</p>
      <blockquote className="request-card__message">{message}</blockquote>
      <p>
        {verb === 'accept'
          ? "If you accept, you'll be connected and we'll email you both each other's contact details."
          : "If you decline, we'll send them a polite reply on your behalf."}
      </p>
      {answer.status === 'failed' && <Alert>{answer.message}</Alert>}
      <div className="actions">
        <Button
          variant={verb === 'accept' ? 'primary' : 'danger'}
          busy={answer.status === 'sending'}
          onClick={submit}
        >
          {verb === 'accept' ? 'Accept request' : 'Decline request'}
        </Button>
        {signedIn ? (
          <Link to="/requests/received" className="button button--ghost">
            Answer in Tandem instead
          </Link>
        ) : (
          <Link to={loginPath('/requests/received')} className="button button--ghost">
            Sign in instead
          </Link>
        )}
      </div>
    </section>
  );
}

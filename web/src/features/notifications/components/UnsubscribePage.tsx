import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { Alert } from '@/components/ui/Alert';
import { Button } from '@/components/ui/Button';
import { PageLoader } from '@/components/ui/PageLoader';
import { describeError } from '@/lib/api';
import { unsubscribeLinkQuery, useUnsubscribe } from '../api/notifications';

/**
 * The footer link of an email (/unsubscribe/{token}): opening it changes nothing (mail scanners
 * open links). It reads the link first, so the page names the kind of email, or says at once
 * that the link does not work; the button POSTs, as a mail provider's one-click unsubscribe does
 * (RFC 8058).
 */
export function UnsubscribePage() {
  const { token = '' } = useParams();
  const link = useQuery(unsubscribeLinkQuery(token));
  const unsubscribe = useUnsubscribe(token);
  let body;
  if (unsubscribe.data) {
    body = <Alert tone="success">{unsubscribe.data.message}</Alert>;
  } else if (link.isPending) {
    body = (
      <div aria-busy="true">
        <PageLoader inline />
      </div>
    );
  } else if (link.isError) {
    body = <Alert title="This link doesn't work">{describeError(link.error)}</Alert>;
  } else {
    body = (
      <>
        <p>
          Stop getting <strong>{link.data.label}</strong> emails from Tandem. Your other notifications stay as they are.
        </p>
        <Button busy={unsubscribe.isPending} onClick={() => { unsubscribe.mutate(); }}>
          Unsubscribe from {link.data.label} emails
        </Button>
        {unsubscribe.isError && <Alert>{describeError(unsubscribe.error)}</Alert>}
      </>
    );
  }
  return (
    <div className="unsubscribe">
      <h1>Unsubscribe</h1>
      {body}
      <p>
        <Link to="/account/notifications/">Change all your notification settings</Link>
      </p>
    </div>
  );
}

import { Link, useParams } from 'react-router';
import { Alert } from '@/components/ui/Alert';
import { Button } from '@/components/ui/Button';
import { describeError } from '@/lib/api';
import { useUnsubscribe } from '../api/notifications';

/**
 * The footer link of an email (/unsubscribe/{token}): opening it changes nothing (mail scanners
 * open links); the button POSTs, as a mail provider's one-click unsubscribe does (RFC 8058).
 */
export function UnsubscribePage() {
  const { token = '' } = useParams();
  const unsubscribe = useUnsubscribe(token);
  return (
    <div className="unsubscribe">
      <h1>Unsubscribe</h1>
      {unsubscribe.data ? (
        <Alert tone="success">{unsubscribe.data.message}</Alert>
      ) : (
        <>
          <p>Stop getting this kind of email from Tandem. Your other notifications stay as they are.</p>
          <Button busy={unsubscribe.isPending} onClick={() => { unsubscribe.mutate(); }}>
            Unsubscribe
          </Button>
        </>
      )}
      {unsubscribe.isError && <Alert>{describeError(unsubscribe.error)}</Alert>}
      <p>
        <Link to="/account/notifications/">Change all your notification settings</Link>
      </p>
    </div>
  );
}

import { Link, useSearchParams } from 'react-router';
import { Breakable } from '@/components/ui/Breakable';
import { Alert } from '@/components/ui/Alert';
import { Button } from '@/components/ui/Button';
import { PageLoader } from '@/components/ui/PageLoader';
import { PagedSection } from '@/components/ui/ListStates';
import { confirmed } from '@/components/ui/confirmed';
import { describeError } from '@/lib/api';
import { formatListDateTime, formatMoney, parseDate } from '@/lib/format';
import { useRefund } from '../api/actions';
import { useMembers, useRefundPreview } from '../api/console';
import { STATUS_LABELS } from '../menu';
import { MemberSearch } from './UsersSection';

function Preview({ accountId, email }: { readonly accountId: string; readonly email: string }) {
  const preview = useRefundPreview(accountId);
  const refund = useRefund(accountId, email);
  if (preview.isPending) return <PageLoader inline />;
  if (preview.isError) return <Alert>{describeError(preview.error)}</Alert>;
  const { payment, message, plan } = preview.data;
  const ask = async () => {
    if (!payment) return;
    const yes = await confirmed({
      title: `Refund ${formatMoney(payment.amount, payment.currency)}?`,
      message: `${email}'s plan ends now and the credits it gave that are not spent yet are taken back. They are emailed about the refund.`,
      confirmLabel: 'Refund',
      danger: true,
    });
    if (yes) refund.mutate();
  };
  const paidAt = parseDate(payment?.paidAt);
  return (
    <div className="card admin__refund" aria-live="polite">
      <p className="admin__primary">{email}</p>
      <p className="admin__secondary">Plan: {STATUS_LABELS[plan.status] ?? plan.status}</p>
      {payment && (
        <dl className="admin__facts">
          <dt>Latest payment</dt>
          <dd>{formatMoney(payment.amount, payment.currency)}</dd>
          <dt>Paid</dt>
          <dd>{paidAt ? formatListDateTime(paidAt) : '—'}</dd>
          <dt>30-day guarantee</dt>
          <dd>{payment.withinGuarantee ? 'Yes' : 'Ended'}</dd>
        </dl>
      )}
      {message && <Alert tone="info">{message}</Alert>}
      <Button variant="danger" busy={refund.isPending} disabled={!payment?.withinGuarantee} onClick={() => void ask()}>
        Refund and end the plan
      </Button>
    </div>
  );
}

/** Refunds under the 30-day money-back guarantee: find the member, check the payment, refund. */
export function RefundsSection() {
  const [params, setParams] = useSearchParams();
  const accountId = params.get('account');
  const email = params.get('email') ?? '';
  const q = params.get('q') ?? '';
  const list = useMembers(q);
  return (
    <section className="admin__section">
      <p className="admin__lead">
        The 30-day money-back guarantee: refunding a payment made in the last 30 days ends the plan and takes back its unspent credits.
      </p>
      {accountId ? (
        <>
          <Preview accountId={accountId} email={email} />
          <p>
            <Link className="link-button" to="/admin/refunds">
              Choose another member
            </Link>
          </p>
        </>
      ) : (
        <>
          <MemberSearch label="Find the member" initial={q} onSearch={(next) => { setParams(next ? { q: next } : {}); }} />
          {q && (
            <PagedSection list={list} noun="users" empty={<p>No user matches “{q}”.</p>}>
              {(members) => (
                <ul className="admin__picks">
                  {members.map((member) => (
                    <li key={member.id}>
                      <span>
                        <span className="admin__primary">
                        <Breakable text={member.email} />
                      </span>
                        <span className="admin__secondary">{STATUS_LABELS[member.plan.status] ?? member.plan.status}</span>
                      </span>
                      <Button
                        variant="secondary"
                        onClick={() => { setParams({ account: member.accountId, email: member.email }); }}
                      >
                        Check payment
                      </Button>
                    </li>
                  ))}
                </ul>
              )}
            </PagedSection>
          )}
        </>
      )}
    </section>
  );
}

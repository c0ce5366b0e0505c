import { useId, useState, type SubmitEvent } from 'react';
import { Alert } from '@/components/ui/Alert';
import { Button } from '@/components/ui/Button';
import { PagedSection } from '@/components/ui/ListStates';
import { confirmed } from '@/components/ui/confirmed';
import { describeError, messageOf } from '@/lib/api';
import { formatListDateTime, parseDate } from '@/lib/format';
import { useApproveAccount, useRefuseAccount, useSaveSiteSettings } from '../api/actions';
import { useApprovals, useSiteSettings, type WaitingAccount } from '../api/console';

const REASON_MAX = 1000;

function RefuseForm({ account, onDone }: { readonly account: WaitingAccount; readonly onDone: () => void }) {
  const [reason, setReason] = useState('');
  const [missing, setMissing] = useState(false);
  const id = useId();
  const refuse = useRefuseAccount(account);
  const error = missing ? 'Please give a reason' : refuse.isError ? messageOf(refuse.error) : null;
  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!reason.trim()) {
      refuse.reset();
      setMissing(true);
      return;
    }
    setMissing(false);
    refuse.mutate(reason.trim(), { onSuccess: onDone });
  };
  return (
    <form className="admin__refuse" onSubmit={submit} noValidate>
      <label className="field__label" htmlFor={id}>
        Reason (emailed to the member)
      </label>
      <textarea
        id={id}
        className="field__input field__input--textarea"
        rows={3}
        maxLength={REASON_MAX}
        value={reason}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(event) => { setReason(event.target.value); }}
      />
      {error && (
        <p className="field__error" id={`${id}-error`} role="alert">
          {error}
        </p>
      )}
      <p className="field__hint">Refusing cancels their held requests (the credits come back), refunds the payment and ends the plan.</p>
      <div className="admin__row-actions">
        <Button type="submit" variant="danger" busy={refuse.isPending}>
          Refuse and refund
        </Button>
        <Button variant="ghost" onClick={onDone}>
          Keep waiting
        </Button>
      </div>
    </form>
  );
}

function Waiting({ account }: { readonly account: WaitingAccount }) {
  const [refusing, setRefusing] = useState(false);
  const approve = useApproveAccount(account);
  const ask = async () => {
    const yes = await confirmed({
      title: 'Approve this subscription?',
      message: `${account.email} will be emailed and the requests they sent meanwhile go out now.`,
      confirmLabel: 'Approve',
    });
    if (yes) approve.mutate();
  };
  const since = parseDate(account.since);
  return (
    <li className="admin__card card">
      <div className="admin__card-head">
        <div>
          <p className="admin__primary">{account.email || account.name}</p>
          <p className="admin__secondary">
            {account.name} · {account.plan.plan ?? 'plan'}
            {since && <> · waiting since {formatListDateTime(since)}</>}
          </p>
        </div>
        {!refusing && (
          <div className="admin__row-actions">
            <Button busy={approve.isPending} onClick={() => void ask()} aria-label={`Approve ${account.email}`}>
              Approve
            </Button>
            <Button variant="secondary" onClick={() => { setRefusing(true); }} aria-label={`Refuse ${account.email}`}>
              Refuse…
            </Button>
          </div>
        )}
      </div>
      {refusing && <RefuseForm account={account} onDone={() => { setRefusing(false); }} />}
    </li>
  );
}

function NewMembersSetting() {
  const settings = useSiteSettings();
  const save = useSaveSiteSettings();
  if (!settings.data) return null;
  return (
    <label className="admin__toggle">
      <input
        type="checkbox"
        checked={settings.data.approveNewMembers}
        disabled={save.isPending}
        onChange={(event) => { save.mutate({ approveNewMembers: event.target.checked }); }}
      />
      <span>The first plan of members who sign up from now on waits for approval</span>
    </label>
  );
}

/** The approval queue: paid plans waiting for a team member (approval normally within 24 hours). */
export function ApprovalsSection() {
  const list = useApprovals();
  return (
    <section className="admin__section">
      <p className="admin__lead">
        These members have entered their card. Their requests wait until you approve; we promise an answer within 24 hours.
      </p>
      <NewMembersSetting />
      <PagedSection list={list} noun="approval queue" empty={<p>No subscription is waiting for approval.</p>}>
        {(accounts) => (
          <ul className="admin__cards">
            {accounts.map((account) => (
              <Waiting key={account.id} account={account} />
            ))}
          </ul>
        )}
      </PagedSection>
      {list.isError && list.data !== undefined && <Alert>{describeError(list.error)}</Alert>}
    </section>
  );
}

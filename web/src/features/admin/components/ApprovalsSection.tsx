import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type SubmitEvent } from 'react';
import { Alert } from '@/components/ui/Alert';
import { Button } from '@/components/ui/Button';
import { PagedSection } from '@/components/ui/ListStates';
import { confirm, USER_CANCELLED } from '@/components/ui/confirm';
import { describeError } from '@/lib/api';
import { formatListDateTime, parseDate } from '@/lib/format';
import { showToast } from '@/lib/toast';
import { adminActions, useApprovals, useSiteSettings, type WaitingAccount } from '../api/console';
import { adminKeys } from '../api/keys';

const REASON_MAX = 1000;

function RefuseForm({ account, onDone }: { readonly account: WaitingAccount; readonly onDone: () => void }) {
  const queryClient = useQueryClient();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const refuse = useMutation({
    mutationFn: () => adminActions.refuse(account.accountId, reason.trim()),
    onSuccess: (result) => {
      const held = result.cancelledRequests;
      showToast({
        tone: 'success',
        title: 'Subscription refused',
        message: `${account.email} was emailed and refunded; ${held} held request${held === 1 ? ' was' : 's were'} cancelled.`,
      });
      void queryClient.invalidateQueries({ queryKey: adminKeys.all });
      onDone();
    },
    onError: (failure) => { setError(describeError(failure)); },
  });
  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!reason.trim()) {
      setError('Please give a reason');
      return;
    }
    setError(null);
    refuse.mutate();
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
  const queryClient = useQueryClient();
  const [refusing, setRefusing] = useState(false);
  const approve = useMutation({
    mutationFn: () => adminActions.approve(account.accountId),
    onSuccess: (result) => {
      const n = result.released;
      showToast({
        tone: 'success',
        title: 'Subscription approved',
        message: `${account.email} was emailed; ${n} held request${n === 1 ? ' was' : 's were'} sent.`,
      });
      void queryClient.invalidateQueries({ queryKey: adminKeys.all });
    },
    onError: (failure) => {
      showToast({ tone: 'error', title: 'Not approved', message: describeError(failure) });
    },
  });
  const ask = async () => {
    try {
      await confirm({
        title: 'Approve this subscription?',
        message: `${account.email} will be emailed and the requests they sent meanwhile go out now.`,
        confirmLabel: 'Approve',
      });
    } catch (reason) {
      if (reason instanceof Error && reason.message === USER_CANCELLED) return;
      throw reason;
    }
    approve.mutate();
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
  const queryClient = useQueryClient();
  const settings = useSiteSettings();
  const save = useMutation({
    mutationFn: (on: boolean) => adminActions.saveSettings({ approveNewMembers: on }),
    onSuccess: (next) => {
      void queryClient.invalidateQueries({ queryKey: adminKeys.all });
      showToast({
        tone: 'success',
        title: 'Saved',
        message: next.approveNewMembers
          ? 'New members’ first plan now waits for approval.'
          : 'New members’ plans start at once.',
      });
    },
    onError: (failure) => {
      showToast({ tone: 'error', title: 'Not saved', message: describeError(failure) });
    },
  });
  if (!settings.data) return null;
  return (
    <label className="admin__toggle">
      <input
        type="checkbox"
        checked={settings.data.approveNewMembers}
        disabled={save.isPending}
        onChange={(event) => { save.mutate(event.target.checked); }}
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

import { useId, useState, type SubmitEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Breakable } from '@/components/ui/Breakable';
import { Button } from '@/components/ui/Button';
import { PagedSection } from '@/components/ui/ListStates';
import { confirmed } from '@/components/ui/confirmed';
import { useGrantTrial, useRequireApproval } from '../api/actions';
import { useMembers, type Member } from '../api/console';
import { STATUS_LABELS } from '../menu';

/** No plan in force: nothing held, or gifted credits only. Such a member's next plan can wait for approval. */
const WITHOUT_PLAN = new Set(['none', 'gifted']);

function PlanCell({ member }: { readonly member: Member }) {
  const { status, approval, source } = member.plan;
  return (
    <>
      {STATUS_LABELS[status] ?? status}
      {source === 'tandem' && <span className="admin__tag">Granted by Tandem</span>}
      {approval === 'required' && WITHOUT_PLAN.has(status) && <span className="admin__tag">Needs approval</span>}
      {approval === 'refused' && <span className="admin__tag admin__tag--warn">Refused</span>}
    </>
  );
}

function MemberActions({ member }: { readonly member: Member }) {
  const require = useRequireApproval(member);
  const trial = useGrantTrial(member);
  // Whether this member's next plan can wait for approval, and whether they may have the free
  // trial, are the server's rules (entitlements).
  const { canRequireApproval: canRequire, canGrantTrial } = member;
  const askTrial = async () => {
    const yes = await confirmed({
      title: 'Grant a free trial?',
      message: `${member.email} gets Tandem's free trial at once, with no card. Each account has one free trial.`,
      confirmLabel: 'Grant free trial',
    });
    if (yes) trial.mutate();
  };
  const ask = async () => {
    const yes = await confirmed({
      title: 'Require approval?',
      message: `${member.email}'s next plan will wait for a team member's approval, and the requests they send meanwhile are held.`,
      confirmLabel: 'Require approval',
    });
    if (yes) require.mutate();
  };
  return (
    <div className="admin__row-actions">
      {canRequire && (
        <Button variant="secondary" busy={require.isPending} onClick={() => void ask()}>
          Require approval
        </Button>
      )}
      {canGrantTrial && (
        <Button variant="secondary" busy={trial.isPending} onClick={() => void askTrial()}>
          Grant free trial
        </Button>
      )}
      {/* Whether there is a payment to refund is the refund screen's to say: it asks the server for the latest payment. */}
      <Link
        className="link-button"
        to={`/admin/refunds?account=${encodeURIComponent(member.accountId)}&email=${encodeURIComponent(member.email)}`}
      >
        Refund
      </Link>
      <Link className="link-button" to={`/admin/credits?email=${encodeURIComponent(member.email)}`}>
        Gift credits
      </Link>
    </div>
  );
}

export function MemberSearch({ label, onSearch, initial }: { readonly label: string; readonly onSearch: (q: string) => void; readonly initial: string }) {
  const [text, setText] = useState(initial);
  const id = useId();
  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    onSearch(text.trim());
  };
  return (
    <form className="admin__search" role="search" onSubmit={submit}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <div className="admin__search-row">
        <input
          id={id}
          className="field__input"
          type="search"
          value={text}
          maxLength={100}
          placeholder="Email or name"
          onChange={(event) => { setText(event.target.value); }}
        />
        <Button type="submit">Search</Button>
      </div>
    </form>
  );
}

/** Users: a server-side search over every user, a page at a time. */
export function UsersSection() {
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const list = useMembers(q);
  return (
    <section className="admin__section">
      <MemberSearch
        label="Search users"
        initial={q}
        onSearch={(next) => { setParams(next ? { q: next } : {}); }}
      />
      <PagedSection list={list} noun="users" empty={<p>{q ? `No user matches “${q}”.` : 'No users yet.'}</p>}>
        {(members) => (
          <div className="admin__table-wrap">
            <table className="admin__table">
              <thead>
                <tr>
                  <th scope="col">User</th>
                  <th scope="col">Access</th>
                  <th scope="col">Plan</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {members.map((member) => (
                  <tr key={member.id}>
                    <th scope="row">
                      <span className="admin__primary">
                        <Breakable text={member.email} />
                      </span>
                      <span className="admin__secondary">{member.name}</span>
                    </th>
                    <td data-label="Access">{member.access}</td>
                    <td data-label="Plan">
                      <PlanCell member={member} />
                    </td>
                    <td>
                      <MemberActions member={member} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </PagedSection>
    </section>
  );
}

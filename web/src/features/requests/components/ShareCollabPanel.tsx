import { useQuery } from '@tanstack/react-query';
import { useId, useState, type SubmitEvent } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/Button';
import { confirm } from '@/components/ui/confirm';
import { useField } from '@/components/form/use-field';
import { collabQuery } from '@/features/collab';
import { CountedTextArea } from './CountedTextArea';
import { formatOrdinalDate, parseDate } from '@/lib/format';
import type { Rule } from '@/lib/validation';
import { shareQuery, useShareAction, type CollabShare } from '../api/share';

export const SUMMARY_MIN = 20;
export const SUMMARY_MAX = 500;

const SUMMARY_RULES: readonly Rule[] = [
  (value) => {
    const length = value.trim().split(/\s+/).join(' ').length;
    if (length < SUMMARY_MIN) return `Write at least ${SUMMARY_MIN} characters: what you did and how it went.`;
    if (length > SUMMARY_MAX) return `Keep it to ${SUMMARY_MAX} characters.`;
    return null;
  },
];

export interface ShareCollabPanelProps {
  readonly brand: string;
  readonly otherBrandId: string;
  readonly otherName: string;
}

/**
 * On a connection's page: show this collab to other members under Member collabs. Either
 * brand proposes it with a summary; it is listed only once the other brand agrees to that
 * summary; either can take it down at any time.
 */
export function ShareCollabPanel({ brand, otherBrandId, otherName }: ShareCollabPanelProps) {
  const titleId = useId();
  const share = useQuery(shareQuery(brand, otherBrandId));
  const action = useShareAction(brand, otherBrandId);
  const [editing, setEditing] = useState(false);
  const current = share.data;

  const withdraw = async (question: { title: string; message: string; confirmLabel: string } | null) => {
    if (question) {
      try {
        await confirm({ ...question, danger: true });
      } catch {
        return; // they kept it
      }
    }
    action.mutate({ kind: 'withdraw' });
  };

  return (
    <section className="share-panel" aria-labelledby={titleId}>
      <h2 id={titleId} className="share-panel__title">
        Member collabs
      </h2>
      {current === undefined ? (
        <p className="muted">{share.isError ? 'We could not check whether this collab is shared.' : 'Checking…'}</p>
      ) : editing ? (
        <ProposalForm
          brand={brand}
          otherName={otherName}
          initial={current}
          busy={action.isPending}
          onCancel={() => {
            setEditing(false);
          }}
          onSubmit={(summary, idea) => {
            action.mutate(
              { kind: 'propose', summary, idea },
              {
                onSuccess: () => {
                  setEditing(false);
                },
              },
            );
          }}
        />
      ) : current.state === 'none' ? (
        <>
          <p>
            Did you work together? Tell other members what you did: it is shown under{' '}
            <Link to="/inspiration/member-collabs">Member collabs</Link> once {otherName} agrees, and either of you can
            take it down at any time.
          </p>
          <Button
            onClick={() => {
              setEditing(true);
            }}
          >
            Share this collab
          </Button>
        </>
      ) : current.state === 'waiting-for-them' ? (
        <>
          <p role="status">Waiting for {otherName} to agree to share this collab.</p>
          <Proposal share={current} />
          <div className="share-panel__actions">
            <Button
              variant="secondary"
              onClick={() => {
                setEditing(true);
              }}
            >
              Edit the summary
            </Button>
            <Button variant="ghost" busy={action.isPending} onClick={() => void withdraw(null)}>
              Withdraw
            </Button>
          </div>
        </>
      ) : current.state === 'waiting-for-you' ? (
        <>
          <p role="status">
            {otherName} would like to show this collab to other members. If you agree, both brands&rsquo; names, logos
            and this summary appear under Member collabs.
          </p>
          <Proposal share={current} />
          <div className="share-panel__actions">
            <Button
              busy={action.isPending}
              onClick={() => {
                action.mutate({ kind: 'agree', proposedAt: current.proposedAt ?? 0 });
              }}
            >
              Agree and share
            </Button>
            <Button
              variant="secondary"
              onClick={() => {
                setEditing(true);
              }}
            >
              Suggest another summary
            </Button>
            <Button variant="ghost" onClick={() => void withdraw(null)}>
              Decline
            </Button>
          </div>
        </>
      ) : (
        <>
          <p role="status">
            Shared under <Link to="/inspiration/member-collabs">Member collabs</Link>
            {current.sharedAt && <> since {formatOrdinalDate(parseDate(current.sharedAt) ?? new Date())}</>}.
          </p>
          <Proposal share={current} />
          <div className="share-panel__actions">
            <Button
              variant="secondary"
              busy={action.isPending}
              onClick={() =>
                void withdraw({
                  title: 'Take this collab down?',
                  message: `It leaves Member collabs at once. Sharing it again needs ${otherName} to agree again.`,
                  confirmLabel: 'Take it down',
                })
              }
            >
              Take it down
            </Button>
          </div>
        </>
      )}
    </section>
  );
}

function Proposal({ share }: { readonly share: CollabShare }) {
  return (
    <blockquote className="share-panel__summary">
      <p>{share.summary}</p>
      {share.idea && <p className="muted small">Collab idea: {share.idea.title}</p>}
    </blockquote>
  );
}

interface ProposalFormProps {
  readonly brand: string;
  readonly otherName: string;
  readonly initial: CollabShare;
  readonly busy: boolean;
  readonly onCancel: () => void;
  readonly onSubmit: (summary: string, idea: string | null) => void;
}

function ProposalForm({ brand, otherName, initial, busy, onCancel, onSubmit }: ProposalFormProps) {
  const summary = useField({ initialValue: initial.summary ?? '', rules: SUMMARY_RULES });
  const [idea, setIdea] = useState(initial.idea?.slug ?? '');
  const ideaId = useId();
  const ideas = useQuery(collabQuery(brand));

  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (summary.validate() !== null) return;
    onSubmit(summary.value.trim(), idea || null);
  };

  return (
    <form className="share-panel__form" aria-label="Share this collab" onSubmit={submit} noValidate>
      <CountedTextArea
        field={summary}
        name="summary"
        label="What did you do together?"
        hint={`A few sentences other members can learn from. ${otherName} is asked to agree to exactly this text.`}
        maxLength={SUMMARY_MAX}
        rows={4}
      />
      <div className="field">
        <label htmlFor={ideaId} className="field__label">
          Which collab idea was it? <span className="field__optional">(optional)</span>
        </label>
        <select
          id={ideaId}
          className="field__input"
          value={idea}
          onChange={(event) => {
            setIdea(event.target.value);
          }}
        >
          <option value="">None of these</option>
          {(ideas.data?.ideas ?? []).map((item) => (
            <option key={item.slug} value={item.slug}>
              {item.title}
            </option>
          ))}
        </select>
      </div>
      <div className="share-panel__actions">
        <Button type="submit" busy={busy}>
          Ask {otherName} to agree
        </Button>
        <Button variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

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
import { SHARE_FIGURES, shareQuery, useShareAction, type CollabShare, type ShareFigure, type SharedCollaboration } from '../api/share';

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
  /** On a finished collaboration's page: the collaboration a new proposal shows, with its results. */
  readonly collaboration?: SharedCollaboration;
}

/**
 * On a connection's page (and a finished collaboration's): show this collab to other members
 * under Member collabs. Either brand proposes it with a summary; it is listed only once the
 * other brand agrees to that summary; either can take it down at any time. A proposal may show
 * a finished collaboration of the two with its results: each brand ticks the figures of its own
 * it allows, and Member collabs shows only those both allowed.
 */
export function ShareCollabPanel({ brand, otherBrandId, otherName, collaboration }: ShareCollabPanelProps) {
  const titleId = useId();
  const share = useQuery(shareQuery(brand, otherBrandId));
  const action = useShareAction(brand, otherBrandId);
  const [editing, setEditing] = useState(false);
  const current = share.data;
  const [agreeing, setAgreeing] = useState<readonly ShareFigure[]>([]);

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
          collaboration={collaboration ?? current.collaboration ?? null}
          busy={action.isPending}
          onCancel={() => {
            setEditing(false);
          }}
          onSubmit={(summary, idea, figures) => {
            const shown = collaboration ?? current.collaboration ?? null;
            action.mutate(
              shown ? { kind: 'propose', summary, idea, collaboration: shown.id, figures } : { kind: 'propose', summary, idea },
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
          {collaboration ? (
            <p>
              Show this collaboration to other members under <Link to="/inspiration/member-collabs">Member collabs</Link>,
              with the figures you choose: it is listed once {otherName} agrees, and only the figures you both allow are
              shown. Either of you can take it down at any time.
            </p>
          ) : (
            <p>
              Did you work together? Tell other members what you did: it is shown under{' '}
              <Link to="/inspiration/member-collabs">Member collabs</Link> once {otherName} agrees, and either of you can
              take it down at any time.
            </p>
          )}
          <Button
            onClick={() => {
              setEditing(true);
            }}
          >
            {collaboration ? 'Share this collaboration' : 'Share this collab'}
          </Button>
        </>
      ) : current.state === 'waiting-for-them' ? (
        <>
          <p role="status">Waiting for {otherName} to agree to share this collab.</p>
          <Proposal share={current} otherName={otherName} />
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
          <Proposal share={current} otherName={otherName} />
          {current.collaboration && (
            <FigureChoice
              legend="Which of your figures may be shown?"
              hint={`Only the figures you and ${otherName} both allow are shown.`}
              value={agreeing}
              onChange={setAgreeing}
            />
          )}
          <div className="share-panel__actions">
            <Button
              busy={action.isPending}
              onClick={() => {
                const proposedAt = current.proposedAt ?? 0;
                action.mutate(current.collaboration ? { kind: 'agree', proposedAt, figures: agreeing } : { kind: 'agree', proposedAt });
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
          <Proposal share={current} otherName={otherName} />
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

const FIGURE_LABELS: Readonly<Record<ShareFigure, string>> = Object.fromEntries(SHARE_FIGURES) as Record<ShareFigure, string>;

function figureList(figures: readonly ShareFigure[]): string {
  return figures.length ? figures.map((f) => FIGURE_LABELS[f]).join(', ') : 'none';
}

function Proposal({ share, otherName }: { readonly share: CollabShare; readonly otherName: string }) {
  const yours = share.figures?.yours ?? [];
  const theirs = share.figures?.theirs ?? [];
  const both = yours.filter((figure) => theirs.includes(figure));
  return (
    <blockquote className="share-panel__summary">
      <p>{share.summary}</p>
      {share.idea && <p className="muted small">Collab idea: {share.idea.title}</p>}
      {share.collaboration && (
        <>
          <p className="muted small">Collaboration: {share.collaboration.title}</p>
          {share.state === 'shared' ? (
            <p className="muted small">Figures shown: {figureList(both)}</p>
          ) : share.state === 'waiting-for-you' ? (
            // The member is choosing theirs below: "yours: none" beside ticked boxes read as a contradiction.
            <p className="muted small">
              {otherName} allows: {figureList(theirs)}
            </p>
          ) : (
            <p className="muted small">
              Your figures allowed: {figureList(yours)} · {otherName}&rsquo;s: {figureList(theirs)}
            </p>
          )}
        </>
      )}
    </blockquote>
  );
}

interface FigureChoiceProps {
  readonly legend: string;
  readonly hint: string;
  readonly value: readonly ShareFigure[];
  readonly onChange: (figures: readonly ShareFigure[]) => void;
}

/** Checkboxes for the result figures of its own a brand allows a shared collaboration to show. */
function FigureChoice({ legend, hint, value, onChange }: FigureChoiceProps) {
  const hintId = useId();
  return (
    <fieldset className="share-panel__figures" aria-describedby={hintId}>
      <legend className="field__label">{legend}</legend>
      <p id={hintId} className="muted small">
        {hint}
      </p>
      {SHARE_FIGURES.map(([figure, label]) => (
        <label key={figure} className="share-panel__figure">
          <input
            type="checkbox"
            checked={value.includes(figure)}
            onChange={(event) => {
              const next = event.target.checked ? [...value, figure] : value.filter((f) => f !== figure);
              onChange(SHARE_FIGURES.map(([f]) => f).filter((f) => next.includes(f)));
            }}
          />{' '}
          {label}
        </label>
      ))}
    </fieldset>
  );
}

interface ProposalFormProps {
  readonly brand: string;
  readonly otherName: string;
  readonly initial: CollabShare;
  /** The finished collaboration the proposal shows (its figures chosen here), if any. */
  readonly collaboration: SharedCollaboration | null;
  readonly busy: boolean;
  readonly onCancel: () => void;
  readonly onSubmit: (summary: string, idea: string | null, figures: readonly ShareFigure[]) => void;
}

function ProposalForm({ brand, otherName, initial, collaboration, busy, onCancel, onSubmit }: ProposalFormProps) {
  const summary = useField({ initialValue: initial.summary ?? '', rules: SUMMARY_RULES });
  const [idea, setIdea] = useState(initial.idea?.slug ?? '');
  const [figures, setFigures] = useState<readonly ShareFigure[]>(
    initial.collaboration && initial.collaboration.id === collaboration?.id ? (initial.figures?.yours ?? []) : [],
  );
  const ideaId = useId();
  const ideas = useQuery(collabQuery(brand));

  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (summary.validate() !== null) return;
    onSubmit(summary.value.trim(), idea || null, figures);
  };

  return (
    <form className="share-panel__form" aria-label="Share this collab" onSubmit={submit} noValidate>
      {collaboration && <p className="muted">Collaboration: {collaboration.title}</p>}
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
      {collaboration && (
        <FigureChoice
          legend="Which of your figures may be shown?"
          hint={`${otherName} chooses theirs when agreeing; only the figures you both allow are shown.`}
          value={figures}
          onChange={setFigures}
        />
      )}
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

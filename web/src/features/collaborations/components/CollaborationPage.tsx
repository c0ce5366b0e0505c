import { useQuery } from '@tanstack/react-query';
import { useId, useState, type SubmitEvent } from 'react';
import { Link, useParams } from 'react-router';
import { Button } from '@/components/ui/Button';
import { LoadFailed } from '@/components/ui/ListStates';
import { PageLoader } from '@/components/ui/PageLoader';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { ApiError } from '@/lib/api';
import { formatListDateTime, parseDate } from '@/lib/format';
import { useSelectedBrand } from '@/lib/session';
import { ShareCollabPanel } from '@/features/requests';
import {
  collaborationQuery,
  CURRENCIES,
  FORMATS,
  GOALS,
  useCollabAction,
  type CollabAction,
  type Collaboration,
  type Owner,
} from '../api/collaborations';
import { InputField, PhaseChip, RESULT_LABELS, ResultsList, SelectField } from './parts';
import { formatPlanDate, localToday } from '../format';

type Act = (action: CollabAction, onDone?: () => void, onFail?: () => void) => void;

/** One collaboration (/collaborations/{id}): the plan, its changes, the checklist, the thread and the results. */
export function CollaborationPage() {
  const { id = '' } = useParams();
  const brand = useSelectedBrand();
  const query = useQuery(collaborationQuery(brand, id));
  const action = useCollabAction(brand, id);
  // The fields' messages of the last refused change, shown by the form that made it.
  const [failed, setFailed] = useState<{ kind: CollabAction['kind']; fields: Readonly<Record<string, string>> } | null>(null);
  useDocumentTitle(query.data ? query.data.title : 'Collaboration');

  const act: Act = (next, onDone, onFail) => {
    setFailed(null);
    action.mutate(next, {
      onSuccess: () => onDone?.(),
      onError: (error) => {
        onFail?.();
        if (error instanceof ApiError) setFailed({ kind: next.kind, fields: error.fieldErrors });
      },
    });
  };

  return (
    <div className="collab-page collaboration-page">
      <p className="back-link">
        <Link to="/collaborations">← All collaborations</Link>
      </p>
      {query.data ? (
        <Loaded
          collab={query.data}
          act={act}
          busy={action.isPending}
          errors={(...kinds) => (failed && kinds.includes(failed.kind) ? failed.fields : {})}
        />
      ) : query.isError ? (
        <>
          <h1 className="page-title">Collaboration</h1>
          <LoadFailed title="We couldn't open this collaboration" error={query.error} retry={() => void query.refetch()} />
        </>
      ) : (
        <PageLoader inline />
      )}
    </div>
  );
}

interface LoadedProps {
  readonly collab: Collaboration;
  readonly act: Act;
  readonly busy: boolean;
  readonly errors: (...kinds: CollabAction['kind'][]) => Readonly<Record<string, string>>;
}

function Loaded({ collab, act, busy, errors }: LoadedProps) {
  return (
    <>
      <header className="page-header">
        <h1 className="page-title">{collab.title}</h1>
        <p className="page-header__lead">
          <PhaseChip phase={collab.phase} label={collab.phaseLabel} /> With {collab.partner.name} ·{' '}
          {formatPlanDate(collab.start)} to {formatPlanDate(collab.end)}
        </p>
      </header>
      {collab.endedReason && (
        <p className="alert alert--info" role="status">
          {collab.phase === 'declined' ? 'Declined' : 'Cancelled'}
          {collab.endedByYou ? ' by you' : ''}: {collab.endedReason}
        </p>
      )}
      <Plan collab={collab} act={act} busy={busy} errors={errors} />
      <Checklist collab={collab} act={act} busy={busy} errors={errors} />
      <Thread collab={collab} act={act} busy={busy} errors={errors} />
      <ResultsSection collab={collab} act={act} busy={busy} errors={errors} />
      <ShareSection collab={collab} />
    </>
  );
}

const FIELD_LABELS: Readonly<Record<string, string>> = {
  format: 'Format',
  title: 'Title',
  bringsMine: 'What you bring',
  bringsTheirs: 'What they bring',
  goal: 'Goal',
  start: 'Start',
  end: 'End',
  moment: 'Moment',
};

function shown(name: string, value: unknown): string {
  if (typeof value !== 'string' || value === '') return 'none';
  return name === 'start' || name === 'end' ? formatPlanDate(value) : value;
}

function Plan({ collab, act, busy, errors: errorsOf }: LoadedProps) {
  const errors = errorsOf('changes', 'decline', 'cancel');
  const titleId = useId();
  const [mode, setMode] = useState<'view' | 'change' | 'decline' | 'cancel'>('view');
  const [draft, setDraft] = useState({ title: collab.title, start: collab.start, end: collab.end, format: collab.format, goal: collab.goal });
  const [reason, setReason] = useState('');
  const partner = collab.partner.name;

  return (
    <section className="collab-section" aria-labelledby={titleId}>
      <h2 id={titleId}>The plan</h2>
      <dl className="collab-plan">
        <div>
          <dt>Format</dt>
          <dd>{collab.format}</dd>
        </div>
        <div>
          <dt>Goal</dt>
          <dd>{collab.goal}</dd>
        </div>
        <div>
          <dt>You bring</dt>
          <dd>{collab.bringsMine}</dd>
        </div>
        <div>
          <dt>{partner} brings</dt>
          <dd>{collab.bringsTheirs}</dd>
        </div>
        {collab.moment && (
          <div>
            <dt>Built around</dt>
            <dd>{collab.moment.name}</dd>
          </div>
        )}
        {collab.idea && (
          <div>
            <dt>Collab idea</dt>
            <dd>
              <Link to={`/inspiration/ideas?idea=${encodeURIComponent(collab.idea.slug)}`}>{collab.idea.title}</Link>
            </dd>
          </div>
        )}
      </dl>
      {collab.brief && (
        <details className="collab-brief">
          <summary>The idea&rsquo;s template</summary>
          <pre tabIndex={0}>{collab.brief}</pre>
        </details>
      )}
      {collab.yourTurn && mode === 'view' && (
        <p role="status">{partner} is waiting for your answer: accept the plan, propose changes or decline.</p>
      )}
      {!collab.yourTurn && collab.phase === 'proposed' && <p role="status">Waiting for {partner} to answer.</p>}
      {mode === 'view' && (
        <div className="collab-actions">
          {collab.can.accept && (
            <Button busy={busy} onClick={() => { act({ kind: 'accept', version: collab.version }); }}>
              Accept the plan
            </Button>
          )}
          {collab.can.change && (
            <Button variant="secondary" onClick={() => { setMode('change'); }}>
              Propose changes
            </Button>
          )}
          {collab.can.decline && (
            <Button variant="ghost" onClick={() => { setMode('decline'); }}>
              Decline
            </Button>
          )}
          {collab.can.cancel && (
            <Button variant="ghost" onClick={() => { setMode('cancel'); }}>
              Cancel the collaboration
            </Button>
          )}
        </div>
      )}
      {mode === 'change' && (
        <form
          className="collab-form"
          aria-label="Propose changes"
          noValidate
          onSubmit={(event: SubmitEvent<HTMLFormElement>) => {
            event.preventDefault();
            act({ kind: 'changes', version: collab.version, plan: draft }, () => { setMode('view'); });
          }}
        >
          <InputField label="Title" name="title" value={draft.title} onChange={(title) => { setDraft({ ...draft, title }); }} error={errors.title} />
          <SelectField
            label="Format"
            name="format"
            value={draft.format}
            onChange={(format) => { setDraft({ ...draft, format }); }}
            options={FORMATS.map((f) => [f, f])}
            error={errors.format}
          />
          <SelectField
            label="Goal"
            name="goal"
            value={draft.goal}
            onChange={(goal) => { setDraft({ ...draft, goal: goal as typeof draft.goal }); }}
            options={GOALS.map((g) => [g, g])}
            error={errors.goal}
          />
          <InputField label="Start" name="start" type="date" min={localToday()} value={draft.start} onChange={(start) => { setDraft({ ...draft, start }); }} error={errors.start} />
          <InputField label="End" name="end" type="date" min={draft.start} value={draft.end} onChange={(end) => { setDraft({ ...draft, end }); }} error={errors.end} />
          <div className="collab-actions">
            <Button type="submit" busy={busy}>
              Send the changes
            </Button>
            <Button variant="ghost" onClick={() => { setMode('view'); }}>
              Back
            </Button>
          </div>
        </form>
      )}
      {(mode === 'decline' || mode === 'cancel') && (
        <form
          className="collab-form"
          aria-label={mode === 'decline' ? 'Decline the plan' : 'Cancel the collaboration'}
          noValidate
          onSubmit={(event: SubmitEvent<HTMLFormElement>) => {
            event.preventDefault();
            act(
              mode === 'decline' ? { kind: 'decline', version: collab.version, reason } : { kind: 'cancel', reason },
              () => { setMode('view'); },
            );
          }}
        >
          <InputField
            label={mode === 'decline' ? 'Why not? (they will read this)' : 'Why are you cancelling? (they will read this)'}
            name="reason"
            multiline
            optional={mode === 'decline'}
            maxLength={500}
            value={reason}
            onChange={setReason}
            error={errors.reason}
          />
          <div className="collab-actions">
            <Button type="submit" variant="danger" busy={busy}>
              {mode === 'decline' ? 'Decline' : 'Cancel it'}
            </Button>
            <Button variant="ghost" onClick={() => { setMode('view'); }}>
              Back
            </Button>
          </div>
        </form>
      )}
      {collab.changes.length > 1 && (
        <>
          <h3>What changed</h3>
          <ol className="collab-history">
            {collab.changes.map((change, index) => (
              <li key={`${change.at}-${index}`}>
                <span className="muted small">{formatListDateTime(parseDate(change.at) ?? new Date())}</span>{' '}
                {change.byYou ? 'You' : partner} {change.kind}
                {Object.keys(change.fields).length > 0 && ':'}
                {Object.keys(change.fields).length > 0 && (
                  <ul>
                    {Object.entries(change.fields).map(([name, [before, after]]) => (
                      <li key={name}>
                        {FIELD_LABELS[name] ?? name}: {shown(name, before)} → {shown(name, after)}
                      </li>
                    ))}
                  </ul>
                )}
              </li>
            ))}
          </ol>
        </>
      )}
    </section>
  );
}

const OWNER_LABELS: Readonly<Record<Owner, string>> = { mine: 'You', theirs: 'Them', both: 'Both' };

function Checklist({ collab, act, busy, errors: errorsOf }: LoadedProps) {
  const errors = errorsOf('addItem');
  const titleId = useId();
  const [text, setText] = useState('');
  const [owner, setOwner] = useState<Owner>('both');
  const [due, setDue] = useState('');
  const done = collab.checklist.filter((item) => item.done).length;
  // What the member just ticked shows at once; the server's answer then replaces it.
  const [ticking, setTicking] = useState<Readonly<Record<string, boolean>>>({});

  return (
    <section className="collab-section" aria-labelledby={titleId}>
      <h2 id={titleId}>
        Checklist ({done}/{collab.checklist.length})
      </h2>
      {collab.checklist.length === 0 ? (
        <p className="muted">Nothing on the checklist yet.</p>
      ) : (
        <ul className="collab-checklist">
          {collab.checklist.map((item) => (
            <li key={item.id}>
              <label>
                <input
                  type="checkbox"
                  checked={ticking[item.id] ?? item.done}
                  disabled={!collab.can.tick}
                  onChange={(event) => {
                    const done = event.target.checked;
                    setTicking({ ...ticking, [item.id]: done });
                    const settle = () => {
                      setTicking((current) => Object.fromEntries(Object.entries(current).filter(([key]) => key !== item.id)));
                    };
                    act({ kind: 'tick', itemId: item.id, done }, settle, settle);
                  }}
                />{' '}
                {item.text}
              </label>{' '}
              <span className="muted small">
                {OWNER_LABELS[item.owner]}
                {item.due && <> · due {formatPlanDate(item.due)}</>}
                {item.done && <> · ticked by {item.doneByYou ? 'you' : collab.partner.name}</>}
              </span>
            </li>
          ))}
        </ul>
      )}
      {collab.can.addItem && (
        <form
          className="collab-form collab-form--inline"
          aria-label="Add to the checklist"
          noValidate
          onSubmit={(event: SubmitEvent<HTMLFormElement>) => {
            event.preventDefault();
            act({ kind: 'addItem', text, owner, due: due || null }, () => {
              setText('');
              setDue('');
            });
          }}
        >
          <InputField label="New item" name="text" value={text} onChange={setText} maxLength={200} error={errors.text} />
          <SelectField
            label="Who does it"
            name="owner"
            value={owner}
            onChange={(value) => { setOwner(value as Owner); }}
            options={[
              ['both', 'Both'],
              ['mine', 'You'],
              ['theirs', collab.partner.name],
            ]}
            error={errors.owner}
          />
          <InputField label="Due" name="due" type="date" optional min={localToday()} value={due} onChange={setDue} error={errors.due} />
          <Button type="submit" variant="secondary" busy={busy}>
            Add
          </Button>
        </form>
      )}
    </section>
  );
}

function Thread({ collab, act, busy, errors: errorsOf }: LoadedProps) {
  const errors = errorsOf('message');
  const titleId = useId();
  const [text, setText] = useState('');
  return (
    <section className="collab-section" aria-labelledby={titleId}>
      <h2 id={titleId}>Messages</h2>
      {collab.messages.length === 0 ? (
        <p className="muted">No messages yet.</p>
      ) : (
        <ol className="collab-thread" aria-labelledby={titleId}>
          {collab.messages.map((message) => (
            <li key={message.id} className={message.byYou ? 'collab-message collab-message--mine' : 'collab-message'}>
              <p className="muted small">
                {message.byYou ? 'You' : `${message.author || collab.partner.name} (${collab.partner.name})`} ·{' '}
                {formatListDateTime(parseDate(message.at) ?? new Date())}
              </p>
              <p className="collab-message__text">{message.text}</p>
            </li>
          ))}
        </ol>
      )}
      {collab.can.message && (
        <form
          className="collab-form"
          aria-label="Send a message"
          noValidate
          onSubmit={(event: SubmitEvent<HTMLFormElement>) => {
            event.preventDefault();
            act({ kind: 'message', text }, () => { setText(''); });
          }}
        >
          <InputField
            label={`Message to ${collab.partner.name}`}
            name="message"
            multiline
            value={text}
            onChange={setText}
            error={errors.text}
            hint={`${text.length}/2,000`}
          />
          <Button type="submit" busy={busy}>
            Send
          </Button>
        </form>
      )}
    </section>
  );
}

function ResultsSection({ collab, act, busy, errors }: LoadedProps) {
  const titleId = useId();
  const { mine, theirs, theirsRecorded, visibleFrom } = collab.results;
  const [editing, setEditing] = useState(false);
  if (!collab.can.recordResults && !mine && !theirs) return null;
  return (
    <section className="collab-section" aria-labelledby={titleId}>
      <h2 id={titleId}>Results</h2>
      {collab.can.recordResults && (!mine || editing) ? (
        <ResultsForm
          initial={mine}
          busy={busy}
          errors={errors('results')}
          onSubmit={(results) => { act({ kind: 'results', results }, () => { setEditing(false); }); }}
        />
      ) : mine ? (
        <>
          <h3>What you saw</h3>
          <ResultsList results={mine} />
          {collab.can.recordResults && !theirs && (
            <Button variant="secondary" onClick={() => { setEditing(true); }}>
              Change your results
            </Button>
          )}
        </>
      ) : null}
      <h3>What {collab.partner.name} saw</h3>
      {theirs ? (
        <ResultsList results={theirs} />
      ) : (
        <p className="muted">
          {theirsRecorded
            ? `${collab.partner.name} has recorded theirs: you see them once you record yours, or from ${formatPlanDate(visibleFrom)}.`
            : `Not recorded yet. You see them once both of you have recorded, or from ${formatPlanDate(visibleFrom)}.`}
        </p>
      )}
    </section>
  );
}

/** A finished collaboration can go to Member collabs when both brands agree, with the figures both allow. */
function ShareSection({ collab }: { readonly collab: Collaboration }) {
  const brand = useSelectedBrand();
  if ((collab.phase !== 'ended' && collab.phase !== 'results-in') || collab.partner.id === null) return null;
  return (
    <ShareCollabPanel
      brand={brand}
      otherBrandId={String(collab.partner.id)}
      otherName={collab.partner.name}
      collaboration={{ id: collab.id, title: collab.title }}
    />
  );
}

function ResultsForm({
  initial,
  busy,
  errors,
  onSubmit,
}: {
  readonly initial: Collaboration['results']['mine'];
  readonly busy: boolean;
  readonly errors: Readonly<Record<string, string>>;
  readonly onSubmit: (results: Record<string, unknown>) => void;
}) {
  const text = (value: number | undefined) => (value === undefined ? '' : String(value));
  const [values, setValues] = useState<Record<string, string>>({
    reach: text(initial?.reach),
    followers: text(initial?.followers),
    clicks: text(initial?.clicks),
    orders: text(initial?.orders),
    revenue: initial?.revenueMinor === undefined ? '' : (initial.revenueMinor / 100).toFixed(2),
    currency: initial?.currency ?? 'GBP',
    again: initial ? (initial.again ? 'yes' : 'no') : '',
    rating: initial ? String(initial.rating) : '',
  });
  const set = (name: string) => (value: string) => { setValues({ ...values, [name]: value }); };
  return (
    <form
      className="collab-form"
      aria-label="Record your results"
      noValidate
      onSubmit={(event: SubmitEvent<HTMLFormElement>) => {
        event.preventDefault();
        onSubmit({
          reach: values.reach,
          followers: values.followers,
          clicks: values.clicks,
          orders: values.orders,
          revenue: values.revenue,
          currency: values.currency,
          again: values.again === '' ? null : values.again === 'yes',
          rating: values.rating === '' ? null : Number(values.rating),
        });
      }}
    >
      <p className="muted">What did you see from this collaboration? Leave out what you did not measure.</p>
      {(Object.keys(RESULT_LABELS) as (keyof typeof RESULT_LABELS)[]).map((key) => (
        <InputField key={key} label={RESULT_LABELS[key]} name={key} optional inputMode="numeric" value={values[key] ?? ''} onChange={set(key)} error={errors[key]} />
      ))}
      <InputField label="Revenue" name="revenue" optional inputMode="decimal" value={values.revenue ?? ''} onChange={set('revenue')} error={errors.revenue} />
      <SelectField label="Currency" name="currency" value={values.currency ?? 'GBP'} onChange={set('currency')} options={CURRENCIES.map((c) => [c, c])} error={errors.currency} />
      <SelectField
        label="Would you partner with them again?"
        name="again"
        value={values.again ?? ''}
        onChange={set('again')}
        options={[
          ['', 'Choose'],
          ['yes', 'Yes'],
          ['no', 'No'],
        ]}
        error={errors.again}
      />
      <SelectField
        label="How did it go, from 1 to 5?"
        name="rating"
        value={values.rating ?? ''}
        onChange={set('rating')}
        options={[['', 'Choose'], ...[1, 2, 3, 4, 5].map((n) => [String(n), String(n)] as const)]}
        error={errors.rating}
      />
      <Button type="submit" busy={busy}>
        Save your results
      </Button>
    </form>
  );
}

import { useId, type ChangeEvent, type ReactNode } from 'react';
import { formatNumber } from '@/lib/format';
import { money } from '../format';
import type { Phase, Results } from '../api/collaborations';

const CHIP: Readonly<Record<Phase, string>> = {
  proposed: 'pending',
  agreed: 'accepted',
  live: 'new',
  ended: 'accepted',
  'results-in': 'accepted',
  declined: 'declined',
  cancelled: 'cancelled',
};

export function PhaseChip({ phase, label }: { readonly phase: Phase; readonly label: string }) {
  return <span className={`status-chip status-chip--${CHIP[phase]}`}>{label}</span>;
}

export const RESULT_LABELS = {
  reach: 'Reach',
  followers: 'New followers or subscribers',
  clicks: 'Clicks',
  orders: 'Orders or sign-ups',
} as const;

export function ResultsList({ results }: { readonly results: Results }) {
  return (
    <dl className="collab-figures">
      {(Object.keys(RESULT_LABELS) as (keyof typeof RESULT_LABELS)[]).map((key) => (
        <div key={key}>
          <dt>{RESULT_LABELS[key]}</dt>
          <dd>{results[key] === undefined ? '–' : formatNumber(results[key])}</dd>
        </div>
      ))}
      <div>
        <dt>Revenue</dt>
        <dd>
          {results.revenueMinor === undefined || !results.currency ? '–' : money(results.revenueMinor, results.currency)}
        </dd>
      </div>
      <div>
        <dt>Would partner again</dt>
        <dd>
          {results.again ? 'Yes' : 'No'} · {results.rating} out of 5
        </dd>
      </div>
    </dl>
  );
}

export interface SelectFieldProps {
  readonly label: string;
  readonly name: string;
  readonly value: string;
  readonly onChange: (value: string) => void;
  readonly options: readonly (readonly [string, string])[];
  readonly error?: string | undefined;
  readonly optional?: boolean;
}

export function SelectField({ label, name, value, onChange, options, error, optional }: SelectFieldProps) {
  const id = useId();
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
        {optional && <span className="field__optional"> (optional)</span>}
      </label>
      <select
        id={id}
        name={name}
        className="field__input field__input--select"
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(event: ChangeEvent<HTMLSelectElement>) => {
          onChange(event.target.value);
        }}
      >
        {options.map(([key, text]) => (
          <option key={key} value={key}>
            {text}
          </option>
        ))}
      </select>
      {error && (
        <p id={`${id}-error`} className="field__error">
          {error}
        </p>
      )}
    </div>
  );
}

export interface InputFieldProps {
  readonly label: string;
  readonly name: string;
  readonly value: string;
  readonly onChange: (value: string) => void;
  readonly error?: string | undefined;
  readonly type?: 'text' | 'date' | 'number';
  readonly optional?: boolean;
  readonly multiline?: boolean;
  readonly min?: string;
  readonly maxLength?: number;
  readonly hint?: ReactNode;
  readonly inputMode?: 'decimal' | 'numeric';
}

export function InputField({
  label,
  name,
  value,
  onChange,
  error,
  type = 'text',
  optional,
  multiline,
  min,
  maxLength,
  hint,
  inputMode,
}: InputFieldProps) {
  const id = useId();
  const describedBy = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ') || undefined;
  const common = {
    id,
    name,
    value,
    maxLength,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy,
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
      onChange(event.target.value);
    },
  } as const;
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
        {optional && <span className="field__optional"> (optional)</span>}
      </label>
      {multiline ? (
        <textarea {...common} className="field__input field__input--textarea" rows={3} />
      ) : (
        <input {...common} className="field__input" type={type} min={min} inputMode={inputMode} />
      )}
      {hint && (
        <p id={`${id}-hint`} className="field__hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="field__error">
          {error}
        </p>
      )}
    </div>
  );
}

import type { Field } from '@/components/form/use-field';

export interface CountedTextAreaProps {
  readonly field: Field;
  readonly name: string;
  readonly label: string;
  readonly maxLength: number;
  readonly optional?: boolean;
  readonly hint?: string;
  readonly rows?: number;
  readonly placeholder?: string;
}

/** A labelled textarea with a live "120/1000" counter and its error message. */
export function CountedTextArea({
  field,
  name,
  label,
  maxLength,
  optional = false,
  hint,
  rows = 5,
  placeholder,
}: CountedTextAreaProps) {
  const countId = `${field.id}-count`;
  const hintId = hint ? `${field.id}-hint` : undefined;
  const errorId = field.error ? `${field.id}-error` : undefined;
  const length = field.value.length;
  const over = length > maxLength;
  return (
    <div className="field">
      <div className="field__label-row">
        <label className="field__label" htmlFor={field.id}>
          {label}
          {optional && <span className="field__optional"> (optional)</span>}
        </label>
        <span id={countId} className={`char-count${over ? ' char-count--over' : ''}`}>
          <span aria-hidden="true">
            {length}/{maxLength}
          </span>
          <span className="visually-hidden">
            {length} of {maxLength} characters used
          </span>
        </span>
      </div>
      {hint && (
        <p id={hintId} className="field__hint">
          {hint}
        </p>
      )}
      <textarea
        id={field.id}
        name={name}
        rows={rows}
        value={field.value}
        onChange={field.onChange}
        placeholder={placeholder}
        className="field__input field__input--textarea"
        aria-invalid={field.error ? true : undefined}
        aria-describedby={[hintId, countId, errorId].filter(Boolean).join(' ')}
      />
      {field.error && (
        <p id={errorId} className="field__error">
          {field.error}
        </p>
      )}
    </div>
  );
}

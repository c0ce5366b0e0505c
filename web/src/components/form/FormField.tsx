import type { InputHTMLAttributes, ReactNode } from 'react';
import { inputTypeFor, type InputType } from '@/lib/validation';
import type { Field } from './use-field';

type NativeInputProps = Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'id' | 'name' | 'type' | 'value' | 'onChange' | 'required'
>;

export interface FormFieldProps extends NativeInputProps {
  readonly field: Field;
  readonly name: string;
  readonly label: string;
  readonly type?: InputType | 'url';
  readonly hint?: ReactNode;
  /** Shown beside the label, e.g. a "Forgot password?" link. */
  readonly labelAside?: ReactNode;
  readonly optional?: boolean;
}

/** A labelled input with its error message, wired for screen readers. */
export function FormField({
  field,
  name,
  label,
  type,
  hint,
  labelAside,
  optional = false,
  ...inputProps
}: FormFieldProps) {
  const hintId = hint ? `${field.id}-hint` : undefined;
  const errorId = field.error ? `${field.id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;

  return (
    <div className="field">
      <div className="field__label-row">
        <label className="field__label" htmlFor={field.id}>
          {label}
          {optional && <span className="field__optional"> (optional)</span>}
        </label>
        {labelAside}
      </div>
      <input
        {...inputProps}
        id={field.id}
        name={name}
        type={inputTypeFor(name, type)}
        value={field.value}
        onChange={field.onChange}
        className="field__input"
        aria-invalid={field.error ? true : undefined}
        aria-describedby={describedBy}
      />
      {hint && (
        <p id={hintId} className="field__hint">
          {hint}
        </p>
      )}
      {field.error && (
        <p id={errorId} className="field__error">
          {field.error}
        </p>
      )}
    </div>
  );
}

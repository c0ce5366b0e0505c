import type { TextareaHTMLAttributes } from 'react';
import type { Field } from './use-field';

type NativeTextAreaProps = Omit<
  TextareaHTMLAttributes<HTMLTextAreaElement>,
  'id' | 'name' | 'value' | 'onChange' | 'required'
>;

export interface TextAreaFieldProps extends NativeTextAreaProps {
  readonly field: Field;
  readonly name: string;
  readonly label: string;
}

/** A labelled multi-line input with its error message (see FormField). */
export function TextAreaField({ field, name, label, rows = 4, ...rest }: TextAreaFieldProps) {
  const errorId = field.error ? `${field.id}-error` : undefined;
  return (
    <div className="field">
      <label className="field__label" htmlFor={field.id}>
        {label}
      </label>
      <textarea
        {...rest}
        id={field.id}
        name={name}
        rows={rows}
        value={field.value}
        onChange={field.onChange}
        className="field__input field__input--textarea"
        aria-invalid={field.error ? true : undefined}
        aria-describedby={errorId}
      />
      {field.error && (
        <p id={errorId} className="field__error">
          {field.error}
        </p>
      )}
    </div>
  );
}

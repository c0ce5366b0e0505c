import type { Field } from '@/components/form/use-field';

export interface SelectFieldProps {
  readonly field: Field;
  readonly name: string;
  readonly label: string;
  readonly options: readonly string[];
  readonly placeholder: string;
  readonly optional?: boolean;
}

/** A labelled drop-down wired to a useField state, with its error message. */
export function SelectField({ field, name, label, options, placeholder, optional = false }: SelectFieldProps) {
  const errorId = field.error ? `${field.id}-error` : undefined;
  return (
    <div className="field">
      <label className="field__label" htmlFor={field.id}>
        {label}
        {optional && <span className="field__optional"> (optional)</span>}
      </label>
      <select
        id={field.id}
        name={name}
        className="field__input field__input--select"
        value={field.value}
        onChange={(event) => {
          field.setValue(event.target.value);
        }}
        aria-invalid={field.error ? true : undefined}
        aria-describedby={errorId}
      >
        <option value="">{placeholder}</option>
        {options.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
        {field.value !== '' && !options.includes(field.value) && <option value={field.value}>{field.value}</option>}
      </select>
      {field.error && (
        <p id={errorId} className="field__error">
          {field.error}
        </p>
      )}
    </div>
  );
}

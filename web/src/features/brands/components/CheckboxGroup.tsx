import { useId } from 'react';

export interface CheckboxGroupProps {
  readonly legend: string;
  readonly name: string;
  readonly options: readonly string[];
  readonly selected: readonly string[];
  readonly onChange: (selected: string[]) => void;
  readonly hint?: string;
  readonly error?: string | null;
  readonly optional?: boolean;
}

/** A labelled group of checkboxes drawn as chips; the choice keeps the options' order. */
export function CheckboxGroup({ legend, name, options, selected, onChange, hint, error, optional = true }: CheckboxGroupProps) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const toggle = (option: string, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(option);
    else next.delete(option);
    onChange(options.filter((item) => next.has(item)));
  };
  return (
    <fieldset
      className="field choice-group"
      aria-describedby={[hintId, errorId].filter(Boolean).join(' ') || undefined}
      aria-invalid={error ? true : undefined}
    >
      <legend className="field__label">
        {legend}
        {optional && <span className="field__optional"> (optional)</span>}
      </legend>
      {hint && (
        <p id={hintId} className="field__hint">
          {hint}
        </p>
      )}
      <div className="choice-group__options">
        {options.map((option) => (
          <label key={option} className="choice-chip">
            <input
              type="checkbox"
              name={name}
              value={option}
              checked={selected.includes(option)}
              onChange={(event) => {
                toggle(option, event.target.checked);
              }}
            />
            <span>{option}</span>
          </label>
        ))}
      </div>
      {error && (
        <p id={errorId} className="field__error">
          {error}
        </p>
      )}
    </fieldset>
  );
}

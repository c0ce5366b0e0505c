import { useId, useState } from 'react';
import type { Country } from '../api/brands';

export interface CountryPickerProps {
  readonly countries: readonly Country[];
  readonly selected: readonly string[];
  readonly onChange: (codes: string[]) => void;
  readonly error?: string | null;
}

/** Countries of the audience: chosen ones as removable chips, the rest found by typing. */
export function CountryPicker({ countries, selected, onChange, error }: CountryPickerProps) {
  const id = useId();
  const [query, setQuery] = useState('');
  const errorId = error ? `${id}-error` : undefined;
  const nameOf = (code: string) => countries.find((country) => country.code === code)?.name ?? code;
  const needle = query.trim().toLowerCase();
  const shown = countries.filter(
    (country) => needle === '' || country.name.toLowerCase().includes(needle) || country.code.toLowerCase() === needle,
  );
  const toggle = (code: string, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(code);
    else next.delete(code);
    onChange(countries.map((country) => country.code).filter((item) => next.has(item)));
  };
  return (
    <fieldset className="field country-picker" aria-describedby={errorId} aria-invalid={error ? true : undefined}>
      <legend className="field__label">
        Countries<span className="field__optional"> (optional)</span>
      </legend>
      <p className="field__hint">Where most of your customers live.</p>
      {selected.length > 0 && (
        <ul className="chips" aria-label="Chosen countries">
          {selected.map((code) => (
            <li key={code} className="chip chip--removable">
              {nameOf(code)}
              <button
                type="button"
                className="chip__remove"
                aria-label={`Remove ${nameOf(code)}`}
                onClick={() => {
                  toggle(code, false);
                }}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <label className="visually-hidden" htmlFor={`${id}-search`}>
        Find a country
      </label>
      <input
        id={`${id}-search`}
        type="search"
        className="field__input"
        placeholder="Find a country"
        value={query}
        onChange={(event) => {
          setQuery(event.target.value);
        }}
      />
      <div className="country-picker__list" role="group" aria-label="Countries to choose from">
        {shown.length === 0 && <p className="muted small">No country matches “{query}”.</p>}
        {shown.map((country) => (
          <label key={country.code} className="country-picker__option">
            <input
              type="checkbox"
              value={country.code}
              checked={selected.includes(country.code)}
              onChange={(event) => {
                toggle(country.code, event.target.checked);
              }}
            />
            <span>{country.name}</span>
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

import { useRef } from 'react';
import { LOGO_TYPES } from '../api/brands';
import type { LogoChoice } from '../hooks/use-logo-choice';
import { BrandLogo } from './BrandLogo';

export interface LogoFieldProps {
  /** The id of the file input; its hint and error ids derive from it. */
  readonly id: string;
  readonly logo: LogoChoice;
  /** The brand name as typed, for the placeholder initial. */
  readonly brandName: string;
  readonly error: string | undefined;
}

/** The brand's logo: what shows now, a file input, and keep / remove. */
export function LogoField({ id, logo, brandName, error }: LogoFieldProps) {
  const input = useRef<HTMLInputElement>(null);
  const clear = () => {
    logo.clear();
    if (input.current) input.current.value = '';
  };
  return (
    <div className="field logo-field">
      <label className="field__label" htmlFor={id}>
        Logo<span className="field__optional"> (optional)</span>
      </label>
      <div className="logo-field__row">
        {logo.shown ? (
          <img
            className="brand-logo brand-logo--lg"
            src={logo.shown}
            alt={logo.preview ? 'Preview of your new logo' : 'Your current logo'}
          />
        ) : (
          <BrandLogo name={brandName || '?'} logoUrl={null} size="lg" />
        )}
        <div className="logo-field__controls">
          <input
            ref={input}
            id={id}
            type="file"
            accept={LOGO_TYPES.join(',')}
            className="logo-field__input"
            aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
            aria-invalid={error ? true : undefined}
            onChange={logo.onChange}
          />
          <p id={`${id}-hint`} className="field__hint">
            PNG, JPEG or WebP, up to 2 MB. A square image looks best.
            {logo.file && ' It uploads when you save.'}
          </p>
          {logo.file && (
            <button type="button" className="link-button" onClick={clear}>
              {logo.hasCurrent ? 'Keep the current logo' : 'Remove this image'}
            </button>
          )}
          {!logo.file && logo.hasCurrent && (
            <button type="button" className="link-button" aria-pressed={logo.remove} onClick={logo.toggleRemove}>
              {logo.remove ? 'Keep the current logo' : 'Remove the logo'}
            </button>
          )}
          {logo.remove && <p className="field__hint">The logo is removed when you save.</p>}
        </div>
      </div>
      {error && (
        <p id={`${id}-error`} className="field__error">
          {error}
        </p>
      )}
    </div>
  );
}

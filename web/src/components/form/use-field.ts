import { useCallback, useEffect, useId, useState, type ChangeEvent } from 'react';
import { ERROR_RECHECK_MS, validateValue, type FieldValidation } from '@/lib/validation';

export interface FieldOptions extends FieldValidation {
  readonly initialValue?: string;
}

export interface Field {
  readonly id: string;
  readonly value: string;
  readonly error: string | null;
  readonly setValue: (value: string) => void;
  readonly onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => void;
  /** Validates now, shows the result and returns the error (null when valid). */
  readonly validate: () => string | null;
  /** Shows a message from the server (a 400's per-field error) until the value changes. */
  readonly setError: (message: string | null) => void;
}

/**
 * State for one form input. Errors appear when `validate` runs (usually on
 * submit); while an error is on screen it is checked again ERROR_RECHECK_MS
 * after each change, so it clears itself once the value is fixed. A server
 * message set with `setError` stays until the value changes or `validate` runs.
 */
export function useField({ initialValue = '', required, rules }: FieldOptions = {}): Field {
  const id = useId();
  const [value, setValueState] = useState(initialValue);
  const [error, setClientError] = useState<string | null>(null);
  const [serverError, setServerError] = useState<string | null>(null);

  const check = useCallback(
    (current: string) => validateValue(current, { required, rules }),
    [required, rules],
  );

  useEffect(() => {
    if (error === null) return undefined;
    const timer = window.setTimeout(() => {
      setClientError(check(value));
    }, ERROR_RECHECK_MS);
    return () => {
      window.clearTimeout(timer);
    };
  }, [error, value, check]);

  const validate = useCallback(() => {
    const message = check(value);
    setClientError(message);
    setServerError(null);
    return message;
  }, [check, value]);

  const setValue = useCallback((next: string) => {
    setValueState(next);
    setServerError(null);
  }, []);

  const onChange = useCallback(
    (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
      setValue(event.target.value);
    },
    [setValue],
  );

  return {
    id,
    value,
    error: error ?? serverError,
    setValue,
    onChange,
    validate,
    setError: setServerError,
  };
}

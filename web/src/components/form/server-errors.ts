import { ApiError } from '@/lib/api';
import type { Field } from './use-field';

/** The per-field messages of a refused form write (a 400's `errors`) that name one of these fields. */
export function fieldErrorsFor(error: unknown, fields: Readonly<Record<string, Field>>): [string, string][] {
  if (!(error instanceof ApiError)) return [];
  return Object.entries(error.fieldErrors).filter(([name]) => name in fields);
}

/**
 * Shows a refused form write's per-field messages on their fields (named as the API names
 * them) and focuses the first; true when there was one. Anything else is the form's to show
 * above its fields.
 */
export function showFieldErrors(error: unknown, fields: Readonly<Record<string, Field>>): boolean {
  const known = fieldErrorsFor(error, fields);
  for (const [name, message] of known) fields[name]?.setError(message);
  const first = known[0] ? fields[known[0][0]] : undefined;
  if (first) document.getElementById(first.id)?.focus();
  return first !== undefined;
}

import { ApiError, messageOf } from '@/lib/api';
import type { Field } from './use-field';

/** The per-field messages of a refused form write (a 400's `errors`) that name one of these fields. */
export function fieldErrorsFor(error: unknown, fields: Readonly<Record<string, Field>>): [string, string][] {
  if (!(error instanceof ApiError)) return [];
  return Object.entries(error.fieldErrors).filter(([name]) => name in fields);
}

/**
 * Shows a refused form write's per-field messages on their fields (named as the API names
 * them) and, unless told not to, focuses the first; true when there was one. Anything else
 * is the form's to show above its fields (formErrorOf).
 */
export function showFieldErrors(
  error: unknown,
  fields: Readonly<Record<string, Field>>,
  { focus = true }: { readonly focus?: boolean } = {},
): boolean {
  const known = fieldErrorsFor(error, fields);
  for (const [name, message] of known) fields[name]?.setError(message);
  const first = known[0] ? fields[known[0][0]] : undefined;
  if (first && focus) document.getElementById(first.id)?.focus();
  return first !== undefined;
}

/**
 * What a form says above its fields about a refused write: the server's message, or null when
 * there is nothing to say there (no failure, it went on the fields, or the session ended).
 */
export function formErrorOf(error: unknown, fields: Readonly<Record<string, Field>> = {}): string | null {
  if (error === null || error === undefined || fieldErrorsFor(error, fields).length > 0) return null;
  return messageOf(error);
}

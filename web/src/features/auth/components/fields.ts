import { email, password } from '@/lib/validation';

/** Field options shared by the account screens (stable objects keep useField's checks memoised). */
export const EMAIL_FIELD = { rules: [email] } as const;
export const NEW_PASSWORD_FIELD = { rules: [password] } as const;
export const REQUIRED_FIELD = {} as const;

export const PASSWORD_HINT =
  'Use 8 to 30 characters with an uppercase letter, a lowercase letter and a number, and no spaces.';

export const PASSWORDS_DIFFER = 'Passwords do not match';

/** Focuses the first field with an error; returns true when every field is valid. */
export function validateAll(fields: readonly { id: string; validate: () => string | null }[]): boolean {
  const invalid = fields.filter((field) => field.validate() !== null);
  const first = invalid[0];
  if (first) document.getElementById(first.id)?.focus();
  return invalid.length === 0;
}

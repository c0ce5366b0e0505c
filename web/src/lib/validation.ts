/**
 * Form validation rules and messages, word for word as SPEC section 5 states them.
 * A rule returns an error message, or null when the value passes.
 */
export type Rule = (value: string) => string | null;

/** Errors on screen are checked again this long after the value changes. */
export const ERROR_RECHECK_MS = 500;

export const MESSAGES = {
  required: 'This field is required',
  email: 'Invalid email',
  url: 'Invalid URL',
  urlHttps: 'Must start with https://',
  urlSchemeCase: (scheme: string) => `${scheme} must be lowercase`,
  passwordTooShort: 'Your password be at least 8 characters',
  passwordPrefix: 'Your password must ',
} as const;

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 30;
const REQUIRED_URL_START = 'https://';

export function isBlank(value: string): boolean {
  return value.trim() === '';
}

export const required: Rule = (value) => (isBlank(value) ? MESSAGES.required : null);

const EMAIL_PATTERN = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)*\.[^\s@.]{2,}$/;

export const email: Rule = (value) => (EMAIL_PATTERN.test(value.trim()) ? null : MESSAGES.email);

const SCHEME_PATTERN = /^(https?):\/\//i;
const HOST_PATTERN = /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,}$/i;

function isHttpUrlWithDomain(value: string): boolean {
  if (!/^https?:\/\/[^\s]+$/.test(value)) return false;
  try {
    const { hostname } = new URL(value);
    return HOST_PATTERN.test(hostname);
  } catch {
    return false;
  }
}

export const url: Rule = (raw) => {
  const value = raw.trim();
  const scheme = SCHEME_PATTERN.exec(value)?.[1];
  if (scheme !== undefined && scheme !== scheme.toLowerCase()) {
    return MESSAGES.urlSchemeCase(scheme);
  }
  if (value.length > 7 && !value.startsWith(REQUIRED_URL_START)) return MESSAGES.urlHttps;
  return isHttpUrlWithDomain(value) ? null : MESSAGES.url;
};

/** Decides whether a password is too easy to guess (the "be harder" failure). */
export type WeakPasswordCheck = (password: string) => boolean;

const BUILT_IN_WEAK_PASSWORDS = new Set(['passw0rd', 'password123']);

/** The built-in check: Passw0rd and Password123 (compared case-insensitively). */
export const isBuiltInWeakPassword: WeakPasswordCheck = (password) =>
  BUILT_IN_WEAK_PASSWORDS.has(password.toLowerCase());

/** Every password requirement that `password` fails, in the order SPEC section 5 lists them. */
export function passwordFailures(
  password: string,
  isWeak: WeakPasswordCheck = isBuiltInWeakPassword,
): string[] {
  const checks: [failed: boolean, text: string][] = [
    [password.length < PASSWORD_MIN_LENGTH, `be at least ${PASSWORD_MIN_LENGTH} characters`],
    [password.length > PASSWORD_MAX_LENGTH, `be at most ${PASSWORD_MAX_LENGTH} characters`],
    [!/\d/.test(password), 'contain a number'],
    [!/[A-Z]/.test(password), 'have an uppercase character'],
    [!/[a-z]/.test(password), 'have an lowercase character'],
    [/\s/.test(password), 'not contain spaces'],
    [isWeak(password), 'be harder'],
  ];
  return checks.filter(([failed]) => failed).map(([, text]) => text);
}

/**
 * Builds the password rule. Pass a different `isWeak` (e.g. one backed by a
 * common-password list) to extend the "be harder" check.
 */
export function createPasswordRule(isWeak: WeakPasswordCheck = isBuiltInWeakPassword): Rule {
  return (password) => {
    if (password.length < PASSWORD_MIN_LENGTH) return MESSAGES.passwordTooShort;
    const failures = passwordFailures(password, isWeak);
    return failures.length === 0 ? null : MESSAGES.passwordPrefix + failures.join(', ');
  };
}

export const password: Rule = createPasswordRule();

export interface FieldValidation {
  /** Fields are required unless they say otherwise. */
  readonly required?: boolean;
  readonly rules?: readonly Rule[];
}

/** Runs the required check, then each rule in turn; returns the first message. */
export function validateValue(value: string, { required: isRequired = true, rules = [] }: FieldValidation = {}): string | null {
  if (isBlank(value)) return isRequired ? MESSAGES.required : null;
  for (const rule of rules) {
    const message = rule(value);
    if (message !== null) return message;
  }
  return null;
}

export type InputType = 'text' | 'email' | 'password' | 'tel' | 'number' | 'search' | 'date';

/**
 * The HTML input type for a field: names phone/telephone render as 'tel',
 * url/website as plain 'text' (so browser URL checking never pre-empts ours).
 */
export function inputTypeFor(name: string, requested: InputType | 'url' = 'text'): InputType {
  const key = name.toLowerCase();
  if (key === 'phone' || key === 'telephone') return 'tel';
  if (key === 'url' || key === 'website' || requested === 'url') return 'text';
  return requested;
}

import type { Rule } from '@/lib/validation';
import type { BrandProfile } from './api/brands';

/** Up to two initials: "Oat & Honey" -> "OH". */
export function initialsOf(name: string): string {
  const words = name.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word));
  const letters = words.slice(0, 2).map((word) => /[\p{L}\p{N}]/u.exec(word)?.[0] ?? '');
  return letters.join('').toUpperCase() || '?';
}

/** What a profile lacks that matching uses most. */
export function missingForMatching(brand: BrandProfile): string[] {
  const missing: string[] = [];
  if (!brand.category) missing.push('a category');
  if (brand.audience.countries.length === 0 && brand.audience.ageBands.length === 0) missing.push('your audience');
  if (brand.values.length === 0) missing.push('your values');
  if (brand.collabKinds.length === 0) missing.push('the collaborations you want');
  return missing;
}

/* Profile rules the server applies too (docs/api.md "Brands"), checked before sending. */

export const NAME_MAX = 80;
export const DESCRIPTION_MAX = 1000;
export const INVALID_PHONE = 'Invalid phone number';

/** "Must be 80 characters or fewer", as the server words it. */
export function maxLength(max: number): Rule {
  return (value) => (value.trim().length > max ? `Must be ${max.toLocaleString('en-GB')} characters or fewer` : null);
}

const PHONE_CHARS = /^\+?[0-9 ()./-]+$/;

/** A number a person could dial: digits with the usual separators, 7 to 15 digits. */
export const phone: Rule = (raw) => {
  const value = raw.trim();
  const digits = value.replace(/\D/g, '').length;
  return PHONE_CHARS.test(value) && digits >= 7 && digits <= 15 ? null : INVALID_PHONE;
};

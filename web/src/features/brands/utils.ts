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

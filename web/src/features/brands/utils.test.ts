import { describe, expect, it } from 'vitest';
import { brandProfile } from '@/features/matches/test-fixtures';
import { initialsOf, maxLength, missingForMatching, phone } from './utils';

describe('brand profile rules', () => {
  it.each([
    ['+44 20 7946 0958', null],
    ['(020) 7946-0958', null],
    ['123456', 'Invalid phone number'],
    ['1234567890123456', 'Invalid phone number'],
    ['call me', 'Invalid phone number'],
    ['44+20 7946 0958', 'Invalid phone number'],
  ])('phone %s -> %s', (value, message) => {
    expect(phone(value)).toBe(message);
  });

  it('words a length limit as the server does', () => {
    expect(maxLength(1000)('x'.repeat(1001))).toBe('Must be 1,000 characters or fewer');
    expect(maxLength(80)(` ${'x'.repeat(80)} `)).toBeNull();
  });

  it('makes initials and lists what matching still needs', () => {
    expect(initialsOf('Oat & Honey')).toBe('OH');
    expect(initialsOf('  ')).toBe('?');
    expect(
      missingForMatching(
        brandProfile({ category: '', collabKinds: [], audience: { ageBands: [], genders: [], countries: [] } }),
      ),
    ).toEqual(['a category', 'your audience', 'the collaborations you want']);
  });
});

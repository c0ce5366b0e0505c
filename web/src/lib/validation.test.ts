import { describe, expect, it } from 'vitest';
import {
  createPasswordRule,
  email,
  inputTypeFor,
  MESSAGES,
  password,
  required,
  url,
  validateValue,
} from './validation';

describe('required', () => {
  it.each(['', '   ', '\t'])('rejects %j with the SPEC message', (value) => {
    expect(required(value)).toBe('This field is required');
  });

  it('accepts any non-blank text', () => {
    expect(required('x')).toBeNull();
  });
});

describe('email', () => {
  it.each(['ana@brand.com', 'first.last+tag@mail.example.co.uk', ' ana@brand.io '])(
    'accepts %s',
    (value) => {
      expect(email(value)).toBeNull();
    },
  );

  it.each(['ana', 'ana@', '@brand.com', 'ana@brand', 'ana @brand.com', 'ana@brand.c'])(
    'rejects %s with "Invalid email"',
    (value) => {
      expect(email(value)).toBe('Invalid email');
    },
  );
});

describe('url', () => {
  it.each(['https://brand.com', 'https://www.brand.co.uk/about?x=1'])('accepts %s', (value) => {
    expect(url(value)).toBeNull();
  });

  it.each(['abc', 'https:/', 'http://'])('short or malformed %s gives "Invalid URL"', (value) => {
    expect(url(value)).toBe('Invalid URL');
  });

  it.each(['https://', 'https://localhost', 'https://bad host.com'])(
    '%s without a valid domain gives "Invalid URL"',
    (value) => {
      expect(url(value)).toBe('Invalid URL');
    },
  );

  it.each(['brand.com', 'http://brand.com', 'www.brand.com', 'ftp://brand.com'])(
    '%s (over 7 characters, not https://) gives "Must start with https://"',
    (value) => {
      expect(url(value)).toBe('Must start with https://');
    },
  );

  it('names an uppercase scheme as typed', () => {
    expect(url('HTTPS://brand.com')).toBe('HTTPS must be lowercase');
    expect(url('Https://brand.com')).toBe('Https must be lowercase');
    expect(url('HTTP://brand.com')).toBe('HTTP must be lowercase');
  });
});

describe('password', () => {
  it('under 8 characters gives the short message exactly', () => {
    expect(password('Ab1')).toBe('Your password be at least 8 characters');
    expect(password('Abcde1g')).toBe('Your password be at least 8 characters');
  });

  it('accepts a good password', () => {
    expect(password('Tandem2025')).toBeNull();
  });

  it.each([
    ['Abcdefgh', 'Your password must contain a number'],
    ['abcdefg1', 'Your password must have an uppercase character'],
    ['ABCDEFG1', 'Your password must have an lowercase character'],
    ['Abcd efg1', 'Your password must not contain spaces'],
    ['Abcdefgh1Abcdefgh1Abcdefgh1Abcd', 'Your password must be at most 30 characters'],
    ['Passw0rd', 'Your password must be harder'],
    ['Password123', 'Your password must be harder'],
    ['abcdefgh', 'Your password must contain a number, have an uppercase character'],
    [
      'abcdefgh abcdefgh abcdefgh abcdefgh',
      'Your password must be at most 30 characters, contain a number, have an uppercase character, not contain spaces',
    ],
    ['        ', 'Your password must contain a number, have an uppercase character, have an lowercase character, not contain spaces'],
  ])('%j gives %j', (value, message) => {
    expect(password(value)).toBe(message);
  });

  it('accepts exactly 30 characters', () => {
    expect(password('Abcdefgh1Abcdefgh1Abcdefgh1Abc')).toBeNull();
  });

  it('lets a common-password list plug into "be harder"', () => {
    const rule = createPasswordRule((value) => value === 'Tandem2025');
    expect(rule('Tandem2025')).toBe('Your password must be harder');
    expect(rule('Passw0rd')).toBeNull();
  });
});

describe('validateValue', () => {
  it('is required by default', () => {
    expect(validateValue('')).toBe(MESSAGES.required);
  });

  it('skips rules for an empty optional field', () => {
    expect(validateValue('', { required: false, rules: [email] })).toBeNull();
  });

  it('returns the first failing rule', () => {
    expect(validateValue('nope', { rules: [email, url] })).toBe('Invalid email');
    expect(validateValue('ana@brand.com', { rules: [email] })).toBeNull();
  });
});

describe('inputTypeFor', () => {
  it.each([
    ['phone', 'tel'],
    ['telephone', 'tel'],
    ['url', 'text'],
    ['website', 'text'],
    ['email', 'text'],
  ] as const)('%s renders as %s', (name, type) => {
    expect(inputTypeFor(name)).toBe(type);
  });

  it('keeps a requested type and never renders type=url', () => {
    expect(inputTypeFor('email', 'email')).toBe('email');
    expect(inputTypeFor('homepage', 'url')).toBe('text');
  });
});

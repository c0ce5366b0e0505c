import { describe, expect, it } from 'vitest';
import { loginPath, safeRedirect } from './redirect';

describe('safeRedirect', () => {
  it.each(['/', '/matches/saved', '/pitch?x=1#top'])('keeps site path %s', (path) => {
    expect(safeRedirect(path)).toBe(path);
  });

  it.each([null, undefined, '', 'matches', '//evil.example', '/\\evil.example', 'https://evil.example'])(
    'drops %j',
    (value) => {
      expect(safeRedirect(value)).toBeNull();
    },
  );
});

describe('loginPath', () => {
  it('keeps slashes readable and encodes the rest', () => {
    expect(loginPath('/')).toBe('/login/?redirect=/');
    expect(loginPath('/matches/saved')).toBe('/login/?redirect=/matches/saved');
    expect(loginPath('/matches?tab=2&x=y')).toBe('/login/?redirect=/matches%3Ftab%3D2%26x%3Dy');
  });

  it('round-trips through URLSearchParams', () => {
    const target = '/requests/received?b=1&c=a b';
    const query = loginPath(target).split('?')[1];
    expect(new URLSearchParams(query).get('redirect')).toBe(target);
  });

  it('never points outside the site', () => {
    expect(loginPath('//evil.example')).toBe('/login/?redirect=/');
  });
});

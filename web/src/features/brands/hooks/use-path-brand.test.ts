import { describe, expect, it } from 'vitest';
import { userBrandInPath } from './use-path-brand';

describe('userBrandInPath', () => {
  it("finds the member's brand in SPEC's per-brand addresses", () => {
    expect(userBrandInPath('/requests/received/12/r1')).toBe('12');
    expect(userBrandInPath('/requests/sent/12')).toBe('12');
    expect(userBrandInPath('/connections/7/3')).toBe('7');
    expect(userBrandInPath('/declines/in/7')).toBe('7');
    expect(userBrandInPath('/matches/potentials/3?x=1')).toBe('3');
    expect(userBrandInPath('/matches/3/brand/40')).toBe('3');
    expect(userBrandInPath('/brand/3/40')).toBe('3');
  });

  it('finds none where the address names another brand or no brand', () => {
    for (const path of ['/', '/requests', '/matches/brand/40', '/brand/40', '/matches/brands/1,2', '/pitch/5', '/account/notifications/']) {
      expect(userBrandInPath(path)).toBeNull();
    }
  });
});

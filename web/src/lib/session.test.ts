import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { signIn, TEST_SESSION } from '@/testing/session';
import {
  clearSession,
  getSelectedBrand,
  getSession,
  isAdmin,
  isLoggedIn,
  setSelectedBrand,
  updateTokens,
  useSession,
} from './session';

describe('session store', () => {
  it('keeps the session in localStorage', () => {
    expect(isLoggedIn()).toBe(false);
    signIn();
    expect(isLoggedIn()).toBe(true);
    expect(window.localStorage.getItem('tandem.session')).toContain('access-1');
    clearSession();
    expect(getSession()).toBeNull();
    expect(window.localStorage.getItem('tandem.session')).toBeNull();
  });

  it('ignores a malformed stored session', () => {
    window.localStorage.setItem('tandem.session', '{"nope":true}');
    window.dispatchEvent(new StorageEvent('storage', { key: 'tandem.session' }));
    expect(getSession()).toBeNull();
  });

  it('replaces tokens after a refresh', () => {
    signIn();
    updateTokens('access-2', 'refresh-2');
    expect(getSession()).toEqual({ ...TEST_SESSION, accessToken: 'access-2', refreshToken: 'refresh-2' });
  });

  it('knows admins by sessionInfo.access', () => {
    signIn({ ...TEST_SESSION, sessionInfo: { access: 'admin' } });
    expect(isAdmin()).toBe(true);
  });

  it('accepts only numeric brand ids', () => {
    expect(getSelectedBrand()).toBe('default');
    setSelectedBrand(7);
    expect(getSelectedBrand()).toBe('7');
    setSelectedBrand('x7');
    expect(getSelectedBrand()).toBe('default');
    window.localStorage.setItem('tandem.selectedBrand', '"abc"');
    expect(getSelectedBrand()).toBe('default');
  });

  it('re-renders subscribers on sign in and sign out', () => {
    const { result } = renderHook(() => useSession());
    expect(result.current).toBeNull();
    act(() => {
      signIn();
    });
    expect(result.current?.firstName).toBe('Ana');
    act(() => {
      clearSession();
    });
    expect(result.current).toBeNull();
  });
});

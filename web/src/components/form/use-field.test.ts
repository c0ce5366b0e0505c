import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { email, ERROR_RECHECK_MS } from '@/lib/validation';
import { useField } from './use-field';

const EMAIL = { rules: [email] } as const;

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('useField', () => {
  it('shows no error until validated', () => {
    const { result } = renderHook(() => useField(EMAIL));
    expect(result.current.error).toBeNull();
    act(() => {
      expect(result.current.validate()).toBe('This field is required');
    });
    expect(result.current.error).toBe('This field is required');
  });

  it(`re-checks a shown error ${ERROR_RECHECK_MS} ms after the value changes`, () => {
    const { result } = renderHook(() => useField(EMAIL));
    act(() => {
      result.current.validate();
    });
    act(() => {
      result.current.setValue('ana@');
    });
    act(() => {
      vi.advanceTimersByTime(ERROR_RECHECK_MS - 1);
    });
    expect(result.current.error).toBe('This field is required');
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(result.current.error).toBe('Invalid email');

    act(() => {
      result.current.setValue('ana@brand.com');
    });
    act(() => {
      vi.advanceTimersByTime(ERROR_RECHECK_MS);
    });
    expect(result.current.error).toBeNull();
  });

  it('does not validate while no error is shown', () => {
    const { result } = renderHook(() => useField(EMAIL));
    act(() => {
      result.current.setValue('nope');
    });
    act(() => {
      vi.advanceTimersByTime(ERROR_RECHECK_MS * 4);
    });
    expect(result.current.error).toBeNull();
  });
});

describe('useField server errors', () => {
  it('shows a server message until the value changes', () => {
    const { result } = renderHook(() => useField(EMAIL));
    act(() => {
      result.current.setValue('ana@brand.com');
    });
    act(() => {
      result.current.setError('An account with this email already exists');
    });
    act(() => {
      vi.advanceTimersByTime(ERROR_RECHECK_MS * 2);
    });
    expect(result.current.error).toBe('An account with this email already exists');
    act(() => {
      result.current.setValue('ana@brand.co');
    });
    expect(result.current.error).toBeNull();
  });
});

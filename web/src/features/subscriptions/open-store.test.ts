import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createOpenStore } from './open-store';

describe('createOpenStore', () => {
  it('holds a value while open, tells its readers, and forgets it on close', () => {
    const store = createOpenStore<{ reason: string }>();
    const { result } = renderHook(() => store.use());
    expect(result.current).toBeNull();
    act(() => {
      store.open({ reason: 'out_of_credits' });
    });
    expect(result.current).toEqual({ reason: 'out_of_credits' });
    expect(store.current()).toEqual({ reason: 'out_of_credits' });
    act(() => {
      store.close();
    });
    expect(result.current).toBeNull();
  });

  it('keeps each store to itself', () => {
    const one = createOpenStore<string>();
    const two = createOpenStore<string>();
    one.open('a');
    expect(two.current()).toBeNull();
    one.close();
  });
});

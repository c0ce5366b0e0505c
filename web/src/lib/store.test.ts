import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createOpenStore, createStore } from './store';

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

describe('createStore', () => {
  it('tells its readers of a new value, and only of a new one', () => {
    const store = createStore(1);
    let told = 0;
    const unsubscribe = store.subscribe(() => {
      told += 1;
    });
    store.set(1);
    expect(told).toBe(0);
    store.set(2);
    expect(store.get()).toBe(2);
    expect(told).toBe(1);
    unsubscribe();
    store.set(3);
    expect(told).toBe(1);
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearToasts, dismissToast, getToasts, MAX_TOASTS, showToast } from './toast';

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  clearToasts();
  vi.useRealTimers();
});

const titles = () => getToasts().map((toast) => toast.title);

describe('toasts', () => {
  it('lists the newest first and keeps at most five', () => {
    for (let n = 1; n <= 7; n++) showToast({ title: `T${n}` });
    expect(MAX_TOASTS).toBe(5);
    expect(titles()).toEqual(['T7', 'T6', 'T5', 'T4', 'T3']);
  });

  it('closes a toast after 7.5 s', () => {
    showToast({ title: 'Saved', message: 'Your changes are saved', tone: 'success' });
    vi.advanceTimersByTime(7499);
    expect(titles()).toEqual(['Saved']);
    vi.advanceTimersByTime(1);
    expect(titles()).toEqual([]);
  });

  it("closes a 'product' toast after 8 s", () => {
    showToast({ title: 'New credits', tone: 'product' });
    vi.advanceTimersByTime(7999);
    expect(titles()).toEqual(['New credits']);
    vi.advanceTimersByTime(1);
    expect(titles()).toEqual([]);
  });

  it('times each toast on its own and can be dismissed early', () => {
    const first = showToast({ title: 'First' });
    vi.advanceTimersByTime(5000);
    showToast({ title: 'Second' });
    vi.advanceTimersByTime(2500);
    expect(titles()).toEqual(['Second']);
    dismissToast(first);
    const second = getToasts()[0];
    if (second) dismissToast(second.id);
    expect(titles()).toEqual([]);
  });

  it('defaults to an info toast with an empty message', () => {
    showToast({ title: 'Hello' });
    expect(getToasts()[0]).toMatchObject({ title: 'Hello', message: '', tone: 'info' });
  });
});

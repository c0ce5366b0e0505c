import { describe, expect, it } from 'vitest';
import { greeting } from './greeting';

describe('greeting', () => {
  it('welcomes a first visit and welcomes back a returning member', () => {
    expect(greeting('Nina', true)).toBe('Welcome, Nina');
    expect(greeting('Dana', false)).toBe('Welcome back, Dana');
    expect(greeting(undefined, false)).toBe('Dashboard');
  });
});

import { describe, expect, it, vi } from 'vitest';
import { readAnalyticsConfig, readRuntimeConfig } from './runtime-config';

const ANALYTICS = {
  region: 'eu-west-2',
  identityPoolId: 'eu-west-2:0b6f2c1e-7d7a-4c55-9f3e-2a1b3c4d5e6f',
  streamName: 'tandem-prod-analytics',
};

describe('runtime config', () => {
  it('reads a complete analytics block', () => {
    expect(readRuntimeConfig({ analytics: ANALYTICS })).toEqual({ analytics: ANALYTICS });
  });

  it('reads "not configured" from anything without an analytics block, quietly', () => {
    const warn = vi.spyOn(console, 'warn');
    for (const value of [null, 'text', 42, [], {}, { analytics: null }]) {
      expect(readAnalyticsConfig(value)).toBeNull();
    }
    expect(warn).not.toHaveBeenCalled();
  });

  it.each([
    ['not an object', 'yes'],
    ['no region', { ...ANALYTICS, region: undefined }],
    ['a region that is not one', { ...ANALYTICS, region: 'London' }],
    ['an identity pool id without its region', { ...ANALYTICS, identityPoolId: '0b6f2c1e' }],
    ['an empty stream name', { ...ANALYTICS, streamName: ' ' }],
    ['a stream name that is not a string', { ...ANALYTICS, streamName: 7 }],
  ])('ignores an analytics block with %s, with a console warning', (_label, analytics) => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(readAnalyticsConfig({ analytics })).toBeNull();
    expect(warn).toHaveBeenCalledOnce();
  });

  it('trims the values it keeps', () => {
    expect(readAnalyticsConfig({ analytics: { ...ANALYTICS, region: ' eu-west-2 ' } })).toEqual(
      ANALYTICS,
    );
  });
});

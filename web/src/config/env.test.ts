import { describe, expect, it } from 'vitest';
import { ConfigError, readConfig } from './env';

describe('readConfig', () => {
  it('defaults the API base to /api/', () => {
    expect(readConfig({}).apiBase).toBe('/api/');
    expect(readConfig({ VITE_API_BASE: '  ' }).apiBase).toBe('/api/');
  });

  it('accepts a path or an absolute URL ending in a slash', () => {
    expect(readConfig({ VITE_API_BASE: '/v1/api/' }).apiBase).toBe('/v1/api/');
    expect(readConfig({ VITE_API_BASE: 'https://api.example.com/' }).apiBase).toBe(
      'https://api.example.com/',
    );
  });

  it.each(['/api', 'api/', '//evil.example/', 'ftp://x/'])('rejects %s', (value) => {
    expect(() => readConfig({ VITE_API_BASE: value })).toThrow(ConfigError);
  });

  it('names the hub used in page titles', () => {
    expect(readConfig({}).hubName).toBe('Tandem Hub');
  });
});

describe('version', () => {
  it('comes from VITE_APP_VERSION, else "dev"', () => {
    expect(readConfig({ VITE_APP_VERSION: '1.2.3' }).version).toBe('1.2.3');
    expect(readConfig({}).version).toBe('dev');
  });
});

describe('siteUrl', () => {
  it('defaults to a placeholder and drops a trailing slash', () => {
    expect(readConfig({}).siteUrl).toBe('https://tandem.example');
    expect(readConfig({ VITE_SITE_URL: 'https://tandem.co/' }).siteUrl).toBe('https://tandem.co');
  });

  it('rejects anything but an http(s) URL', () => {
    expect(() => readConfig({ VITE_SITE_URL: 'tandem.co' })).toThrow(ConfigError);
  });
});

/**
 * Application configuration, read from the Vite environment and validated once
 * when the bundle starts. Anything invalid fails loudly at start-up instead of
 * producing odd requests later.
 */
export interface AppConfig {
  /** Site name. */
  readonly appName: string;
  /** Hub name: the prefix of every page title ("Tandem Hub: Login"). */
  readonly hubName: string;
  /** Base of every API call, always ending in '/'. */
  readonly apiBase: string;
  readonly isDev: boolean;
}

export interface RawEnv {
  readonly VITE_API_BASE?: string;
  readonly DEV?: boolean;
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

const DEFAULT_API_BASE = '/api/';

function readApiBase(raw: string | undefined): string {
  const value = raw?.trim() ?? '';
  if (value === '') return DEFAULT_API_BASE;
  const isPath = value.startsWith('/') && !value.startsWith('//');
  const isAbsolute = /^https?:\/\/[^/]+\//.test(value);
  if (!(isPath || isAbsolute) || !value.endsWith('/')) {
    throw new ConfigError(
      `VITE_API_BASE must be a path like '/api/' or an http(s) URL ending in '/', got '${value}'`,
    );
  }
  return value;
}

export function readConfig(raw: RawEnv): AppConfig {
  return Object.freeze({
    appName: 'Tandem',
    hubName: 'Tandem Hub',
    apiBase: readApiBase(raw.VITE_API_BASE),
    isDev: raw.DEV === true,
  });
}

export const config: AppConfig = readConfig(import.meta.env);

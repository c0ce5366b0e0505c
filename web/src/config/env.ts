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
  /** The public website (terms, privacy, FAQs), without a trailing slash. */
  readonly siteUrl: string;
  /** The app's version (package.json), shown to admins in the footer. */
  readonly version: string;
}

export interface RawEnv {
  readonly VITE_API_BASE?: string;
  readonly VITE_APP_VERSION?: string;
  readonly VITE_SITE_URL?: string;
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

/** Placeholder for local builds; a deploy refuses a build that still has it (infra/deploy_web.py): set VITE_SITE_URL. */
const DEFAULT_SITE_URL = 'https://tandem.example';

function readSiteUrl(raw: string | undefined): string {
  const value = raw?.trim() ?? '';
  if (value === '') return DEFAULT_SITE_URL;
  if (!/^https?:\/\/[^/\s]+/.test(value)) {
    throw new ConfigError(`VITE_SITE_URL must be an http(s) URL, got '${value}'`);
  }
  return value.replace(/\/+$/, '');
}

function readVersion(raw: string | undefined): string {
  const value = raw?.trim() ?? '';
  return value === '' ? 'dev' : value;
}

export function readConfig(raw: RawEnv): AppConfig {
  return Object.freeze({
    appName: 'Tandem',
    hubName: 'Tandem Hub',
    apiBase: readApiBase(raw.VITE_API_BASE),
    siteUrl: readSiteUrl(raw.VITE_SITE_URL),
    isDev: raw.DEV === true,
    version: readVersion(raw.VITE_APP_VERSION),
  });
}

export const config: AppConfig = readConfig(import.meta.env);

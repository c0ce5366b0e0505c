/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Base path (or absolute URL) of the HTTP API; must end with '/'. Defaults to '/api/'. */
  readonly VITE_API_BASE?: string;
  /** Set from package.json by vite.config.ts. */
  readonly VITE_APP_VERSION?: string;
  /** The public website (terms, privacy, FAQs) linked from the footer. */
  readonly VITE_SITE_URL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}

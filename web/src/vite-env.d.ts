/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Base path (or absolute URL) of the HTTP API; must end with '/'. Defaults to '/api/'. */
  readonly VITE_API_BASE?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}

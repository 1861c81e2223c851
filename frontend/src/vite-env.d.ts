/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Product name shown before the server's info lookup answers. */
  readonly VITE_APP_NAME?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}

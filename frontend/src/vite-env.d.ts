/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** "1" builds the Lao variant: Lao default language, no 10-digit phone rule, LAK/BAHT choice. */
  readonly VITE_LAO?: string;
  /** Product name shown before the server's info lookup answers. */
  readonly VITE_APP_NAME?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}

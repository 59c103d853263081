/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** The request-signing word (D6); defaults to "localwire". */
  readonly VITE_SIGN_WORD?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}

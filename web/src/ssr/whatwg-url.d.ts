/** whatwg-url ships no types; it implements the same URL the browsers have. */
declare module 'whatwg-url' {
  export const URL: typeof globalThis.URL;
  export const URLSearchParams: typeof globalThis.URLSearchParams;
}

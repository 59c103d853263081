/**
 * Redirects that stay on this site (D360; the server's `same_origin::same_origin_path`,
 * shared fixture `shared/fixtures/same-origin.json`). A browser reads `//host`, `/\host`
 * or `\/host` as another site, and drops tabs and newlines first, so a redirect target
 * built from the URL loses its control characters and its leading run of slashes,
 * backslashes and their percent-encoded forms collapses to one `/`.
 */

/** A slash, backslash, or an encoded slash, backslash, tab or newline (`%2F`, `%252f`…). */
const LEADING_SEPARATOR = /^(?:[/\\]|%(?:25)*(?:2f|5c|09|0a|0d))/i;

/** The Unicode control characters (Rust's `char::is_control`: C0, DEL and C1). */
function isControl(c: string): boolean {
  const code = c.charCodeAt(0);
  return code < 0x20 || (code >= 0x7f && code <= 0x9f);
}

/** `target` as a path on this site: `/`, or `/` followed by neither `/` nor `\`. */
export function sameOriginPath(target: string): string {
  let rest = [...target].filter((c) => !isControl(c)).join('');
  for (let m = LEADING_SEPARATOR.exec(rest); m; m = LEADING_SEPARATOR.exec(rest)) {
    rest = rest.slice(m[0].length);
  }
  return `/${rest}`;
}

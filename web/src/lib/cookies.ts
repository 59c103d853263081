/** Cookie reading and writing (D3 locale cookie, D4 app-settings cookies). */

const DAY_SECONDS = 24 * 60 * 60;

export interface CookieOptions {
  days: number;
  path?: string;
  sameSite?: 'Lax' | 'Strict' | 'None';
  secure?: boolean;
}

/** The text for `document.cookie = …`. Max-Age carries the lifetime; Expires is for old agents. */
export function serializeCookie(
  name: string,
  value: string,
  { days, path = '/', sameSite = 'Lax', secure = false }: CookieOptions,
  now: number = Date.now(),
): string {
  const maxAge = Math.round(days * DAY_SECONDS);
  const expires = new Date(now + maxAge * 1000).toUTCString();
  let text = `${name}=${encodeURIComponent(value)}; Max-Age=${maxAge}; Expires=${expires}; Path=${path}; SameSite=${sameSite}`;
  if (secure) text += '; Secure';
  return text;
}

export function parseCookies(header: string): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    if (!name || cookies.has(name)) continue;
    const raw = part.slice(eq + 1).trim();
    try {
      cookies.set(name, decodeURIComponent(raw));
    } catch {
      cookies.set(name, raw);
    }
  }
  return cookies;
}

/** The browser's cookie jar behind a small interface, so tests can use their own. */
export interface CookieJar {
  get(name: string): string | undefined;
  set(name: string, value: string, options: CookieOptions): void;
  remove(name: string, path?: string): void;
}

export function documentCookieJar(doc: Document = document): CookieJar {
  const secure = doc.location?.protocol === 'https:';
  return {
    get: (name) => parseCookies(doc.cookie).get(name),
    set: (name, value, options) => {
      doc.cookie = serializeCookie(name, value, { secure, ...options });
    },
    remove: (name, path = '/') => {
      doc.cookie = `${name}=; Max-Age=0; Path=${path}`;
    },
  };
}

/**
 * The golden test's markup normaliser (D230): two renderings of a screen are the same
 * when this gives the same text for both. It keeps what a reader or a script sees
 * (elements, classes, text, hrefs, aria, nesting) and drops what differs only in form:
 * attribute order, whitespace between tags, comments (React's markers), self-closing and
 * boolean-attribute spellings, entity forms, and the ids React makes with `useId`
 * (renamed `id1`, `id2`… in document order, with every reference to them).
 *
 * React's hoisted image preloads and React Router's `data-discover` marks are dropped.
 * It also applies the first screen's documented cuts (D156), the same on both sides:
 * - the loading marker of a placeholder image (`.news-image__marker`): the server leaves
 *   the sweep out until the app runs;
 * - a paging list (one with its status line) keeps its first `FIRST_SCREEN_CARDS` cards
 *   and no "Load more": the app renders the rest and pages on.
 */

/** The cards a paging list's first screen shows (crates/api first_paint `FIRST_SCREEN_CARDS`). */
export const FIRST_SCREEN_CARDS = 6;

const VOID = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'source',
  'track',
  'wbr',
]);

/** Attributes that hold ids (one or several). */
const ID_REFS = ['id', 'for', 'aria-labelledby', 'aria-describedby', 'aria-controls'];

/** Ids made at render time: React's `useId` forms and the server's `fp1`… */
const GENERATED_ID = /^(«r[0-9a-z]+»|:r[0-9a-z]+:|_r_[0-9a-z]+_|fp\d+)$/i;

/** What React or React Router add that is no part of the screen a reader sees. */
function dropRenderingArtifacts(root: DocumentFragment): void {
  // renderToStaticMarkup hoists image preloads (`<link rel="preload">`) before the markup;
  // a client render puts them in the head, and the server's page head has its own (D147).
  for (const child of [...root.children]) if (child.tagName === 'LINK') child.remove();
  // React Router marks links for lazy route discovery.
  root.querySelectorAll('[data-discover]').forEach((a) => a.removeAttribute('data-discover'));
}

function applyFirstScreenCuts(root: DocumentFragment): void {
  root.querySelectorAll('.news-image__marker').forEach((marker) => marker.remove());
  root.querySelectorAll('.paged-list').forEach((list) => {
    if (!list.querySelector(':scope > p[role="status"]')) return;
    list.querySelector(':scope > .load-more')?.remove();
    const items = list.querySelectorAll(':scope > ul > li');
    items.forEach((item, i) => {
      if (i >= FIRST_SCREEN_CARDS) item.remove();
    });
  });
}

function renameGeneratedIds(root: DocumentFragment): void {
  const names = new Map<string, string>();
  for (const element of root.querySelectorAll('*')) {
    for (const attr of ID_REFS) {
      const value = element.getAttribute(attr);
      if (value === null) continue;
      const renamed = value
        .split(/\s+/)
        .map((token) => {
          if (!GENERATED_ID.test(token)) return token;
          if (!names.has(token)) names.set(token, `id${names.size + 1}`);
          return names.get(token)!;
        })
        .join(' ');
      element.setAttribute(attr, renamed);
    }
  }
}

const escapeText = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeAttr = (text: string) =>
  escapeText(text)
    .replace(/"/g, '&quot;')
    .replace(/[\u00a0\u202f]/g, (c) => `&#x${c.charCodeAt(0).toString(16)};`);

function serialise(node: Node, depth: number, out: string[]): void {
  const pad = '  '.repeat(depth);
  if (node.nodeType === Node.TEXT_NODE) {
    const text = node.textContent ?? '';
    // Non-breaking spaces (some Intl versions put U+202F before "AM") are spelled out.
    const shown = JSON.stringify(text)
      .slice(1, -1)
      .replace(/[\u00a0\u202f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
    if (text.trim() !== '') out.push(pad + shown);
    return;
  }
  if (node.nodeType !== Node.ELEMENT_NODE) return;
  const element = node as Element;
  const tag = element.tagName.toLowerCase();
  const attrs = [...element.attributes]
    .map((a) => [a.name, a.value] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, value]) => ` ${name}="${escapeAttr(value)}"`)
    .join('');
  out.push(`${pad}<${tag}${attrs}>`);
  if (VOID.has(tag)) return;
  const children = tag === 'template' ? (element as HTMLTemplateElement).content : element;
  for (const child of children.childNodes) serialise(child, depth + 1, out);
  out.push(`${pad}</${tag}>`);
}

/** One line per tag and per text (escaped as JSON strings are), indented by depth. */
export function normaliseMarkup(html: string): string {
  const template = document.createElement('template');
  template.innerHTML = html;
  const root = template.content;
  dropRenderingArtifacts(root);
  applyFirstScreenCuts(root);
  renameGeneratedIds(root);
  const out: string[] = [];
  for (const child of root.childNodes) serialise(child, 0, out);
  return out.join('\n') + '\n';
}

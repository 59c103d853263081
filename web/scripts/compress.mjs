// Writes .br (quality 11) and .gz (level 9) beside every .js/.css/.json/.svg/.html file in
// dist/, then reports the first-load weight (the HTML plus the JS and CSS it loads) and
// fails when it is over budget.
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const COMPRESSIBLE = /\.(js|css|json|svg|html)$/;
/** First-load JS + CSS + HTML, compressed (gzip), in bytes. */
const BUDGET_BYTES = 170 * 1024;

async function* walk(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    // The server's own renderer (.server/, D424) is read from disk, never sent.
    if (entry.name === '.server') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else yield path;
  }
}

const sizes = new Map();
let count = 0;
for await (const path of walk(dist)) {
  if (!COMPRESSIBLE.test(path)) continue;
  const data = await readFile(path);
  const br = brotliCompressSync(data, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 11,
      [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
    },
  });
  const gz = gzipSync(data, { level: 9 });
  await writeFile(`${path}.br`, br);
  await writeFile(`${path}.gz`, gz);
  sizes.set(relative(dist, path), { raw: data.length, gz: gz.length, br: br.length });
  count++;
}

// The built shell keeps the server's markers (D20) and nothing inline (strict CSP).
const html = await readFile(join(dist, 'index.html'), 'utf8');
const shellProblems = [];
for (const marker of ['<html lang="en" dir="ltr">', '<!--lw:head-->', '<!--lw:payload-->']) {
  if (html.split(marker).length !== 2) shellProblems.push(`marker ${marker} must appear once`);
}
if (html.indexOf('<!--lw:payload-->') > html.indexOf('<script type="module"')) {
  shellProblems.push('<!--lw:payload--> must come before the module script');
}
if (/<style|\sstyle=|<title/i.test(html))
  shellProblems.push('inline style or <title> in the shell');
for (const tag of html.match(/<script\b[^>]*>/gi) ?? []) {
  if (!/\bsrc=/.test(tag)) shellProblems.push(`inline script: ${tag}`);
}
if (shellProblems.length) {
  console.error(`dist/index.html breaks the shell contract:\n  ${shellProblems.join('\n  ')}`);
  process.exit(1);
}

// What a first load fetches: the shell's own scripts and styles (the boot script), and
// the app's entry with its static imports and styles, which the boot script starts
// after the first paint (D156).
const firstLoad = new Set(['index.html']);
for (const match of html.matchAll(/(?:src|href)="\/([^"]+\.(?:js|css))"/g)) firstLoad.add(match[1]);
const manifest = JSON.parse(await readFile(join(dist, '.vite', 'manifest.json'), 'utf8'));
const addChunk = (key) => {
  const chunk = manifest[key];
  if (!chunk || firstLoad.has(chunk.file)) return;
  firstLoad.add(chunk.file);
  for (const css of chunk.css ?? []) firstLoad.add(css);
  for (const dep of chunk.imports ?? []) addChunk(dep);
};
addChunk('index.html');

// The active locale's catalogue is a lazy chunk, but it loads before the first render:
// count the largest one.
const catalogue = [...sizes.entries()]
  .filter(([file]) => /^assets\/(en|es|fr)-[\w-]+\.js$/.test(file))
  .sort((a, b) => b[1].gz - a[1].gz)[0];
if (catalogue) firstLoad.add(catalogue[0]);

const total = { raw: 0, gz: 0, br: 0 };
console.log(`compressed ${count} files`);
console.log('first load:');
for (const file of firstLoad) {
  const size = sizes.get(file) ?? { raw: (await stat(join(dist, file))).size, gz: 0, br: 0 };
  total.raw += size.raw;
  total.gz += size.gz;
  total.br += size.br;
  console.log(`  ${file.padEnd(40)} ${size.raw} B, gzip ${size.gz} B, brotli ${size.br} B`);
}
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
console.log(`  total: ${kb(total.raw)} raw, ${kb(total.gz)} gzip, ${kb(total.br)} brotli`);
if (total.gz > BUDGET_BYTES) {
  console.error(`first load ${kb(total.gz)} gzip is over the ${kb(BUDGET_BYTES)} budget`);
  process.exit(1);
}

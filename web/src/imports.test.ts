/**
 * The layout's import rules (CONVENTIONS.md, D419), read from the source files so they
 * cannot regress unnoticed:
 * 1. `app/` wires things together and may import anything; nothing in `features/`,
 *    `components/` or `lib/` imports `app/`.
 * 2. `lib/` and `components/` are shared code below the features: they import no feature.
 * 3. From outside a feature, it is imported through its `index.ts`, or through one of the
 *    second public entries below, each there for a reason.
 * Tests count too; static, dynamic and side-effect imports alike.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/** A feature's files that other parts may import besides its index.ts, and why. */
const SECOND_ENTRIES: Readonly<Record<string, string>> = {
  'features/reader/save.ts':
    "the news card's Save button alone, loaded lazily by app/App.tsx: the index would load every reader screen (D415)",
  'features/news/feed.ts':
    "the paging feed with its ad slots, loaded lazily by home's latest list: through the index, home's first load would fetch the ads (D425)",
  'features/offline/cacheRules.ts':
    "the service worker's rules: src/sw is its own build, with no DOM and no React",
};

const src = join(process.cwd(), 'src');
const SOURCE = /\.(ts|tsx)$/;
const SPECIFIER =
  /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\bvi\.mock\(\s*)['"](\.{1,2}\/[^'"]*)['"]/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => SOURCE.test(file) && !file.endsWith('.d.ts'))
    .map((file) => join(dir, file));
}

function resolveImport(from: string, specifier: string): string | null {
  const base = resolve(dirname(from), specifier);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

/** Every relative import in src/: [importing file, imported file], both relative to src/. */
function importsOf(files: string[]): Array<[string, string]> {
  const edges: Array<[string, string]> = [];
  for (const file of files) {
    for (const match of readFileSync(file, 'utf8').matchAll(SPECIFIER)) {
      const target = resolveImport(file, match[1]);
      if (target) edges.push([relative(src, file), relative(src, target)]);
    }
  }
  return edges;
}

const featureOf = (path: string) => /^features\/([^/]+)\//.exec(path)?.[1] ?? null;
const layerOf = (path: string) => path.split('/')[0];

/** The broken rule for one import, or null. */
function brokenRule(from: string, to: string): string | null {
  const fromLayer = layerOf(from);
  if (['features', 'components', 'lib'].includes(fromLayer) && layerOf(to) === 'app') {
    return `${from} imports ${to}: only app/ may import app/`;
  }
  if (['components', 'lib'].includes(fromLayer) && layerOf(to) === 'features') {
    return `${from} imports ${to}: shared code imports no feature`;
  }
  const feature = featureOf(to);
  if (feature && featureOf(from) !== feature) {
    const isIndex = /^features\/[^/]+\/index\.tsx?$/.test(to);
    if (!isIndex && !(to in SECOND_ENTRIES)) {
      return `${from} imports ${to}: import features/${feature} through its index.ts`;
    }
  }
  return null;
}

describe('D419 import rules of the layout', () => {
  const edges = importsOf(sourceFiles(src));

  it('reads the imports, dynamic ones included', () => {
    expect(edges.length).toBeGreaterThan(500);
    expect(edges).toContainEqual(['app/App.tsx', 'features/reader/save.ts']);
    expect(edges).toContainEqual(['sw/sw.ts', 'features/offline/cacheRules.ts']);
  });

  it('D419 no import breaks a rule', () => {
    const broken = edges.map(([from, to]) => brokenRule(from, to)).filter(Boolean);
    expect(broken).toEqual([]);
  });

  it('D419 names each rule it breaks', () => {
    expect(brokenRule('features/news/hooks.ts', 'app/services.ts')).toMatch(/only app/);
    expect(brokenRule('lib/services.ts', 'features/user/index.ts')).toMatch(/no feature/);
    expect(brokenRule('features/search/SearchScreen.tsx', 'features/news/hooks.ts')).toMatch(
      /through its index/,
    );
    expect(brokenRule('routes/screens/home.tsx', 'features/trends/api.ts')).toMatch(
      /through its index/,
    );
    expect(brokenRule('features/news/hooks.ts', 'features/news/api.ts')).toBeNull();
    expect(brokenRule('features/search/SearchScreen.tsx', 'features/news/index.ts')).toBeNull();
    expect(brokenRule('app/App.tsx', 'features/reader/save.ts')).toBeNull();
  });
});

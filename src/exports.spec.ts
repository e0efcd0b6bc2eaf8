import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/**
 * Nothing is exported that no other file uses: an export is a promise to other modules, and one
 * kept for nobody hides what a file really offers. A name counts as used when another file of
 * the project (source, tests, bench, scripts) mentions it. Migrations are loaded by folder.
 */
const ROOT = process.cwd();

function filesUnder(dir: string, keep: (name: string) => boolean): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : filesUnder(path, keep);
    return keep(entry.name) ? [path] : [];
  });
}

describe('exports', () => {
  it('exports from src/ only what another file uses', () => {
    const code = (name: string) => /\.(ts|mjs|js)$/.test(name);
    const all = ['src', 'test', 'bench', 'scripts'].flatMap((dir) => filesUnder(join(ROOT, dir), code));
    const words = new Map<string, Set<string>>();
    const texts = new Map(all.map((path) => [path, readFileSync(path, 'utf8')]));
    for (const [path, text] of texts) {
      for (const word of new Set(text.match(/[A-Za-z_$][\w$]*/g) ?? [])) {
        if (!words.has(word)) words.set(word, new Set());
        words.get(word)!.add(path);
      }
    }
    const unused: string[] = [];
    for (const [path, text] of texts) {
      const rel = relative(ROOT, path).split(sep).join('/');
      if (!rel.startsWith('src/') || rel.endsWith('.spec.ts') || rel.includes('/migrations/')) continue;
      for (const match of text.matchAll(
        /^export (?:declare )?(?:abstract )?(?:async )?(?:const|let|function\*?|class|type|interface|enum) ([A-Za-z_$][\w$]*)/gm,
      )) {
        const users = words.get(match[1]) ?? new Set();
        if ([...users].every((user) => user === path)) unused.push(`${rel}: ${match[1]}`);
      }
    }
    expect(unused).toEqual([]);
  });
});

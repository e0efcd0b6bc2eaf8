import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/**
 * One owner per table: an entity class (the handle TypeORM needs to query its table) is used
 * as a value only inside the module whose folder holds it. Others import it as a type, or ask
 * the owning module through its methods. Listing the entities for the data source is the
 * composition root's job (src/entities.ts), so it is the one exception.
 */
const SRC = join(process.cwd(), 'src');
const EXEMPT = [/^entities\.ts$/, /^database\/migrations\//];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
  });
}

const moduleOf = (file: string) => relative(SRC, file).split(sep)[0];
const files = sourceFiles(SRC).map((path) => ({
  path,
  rel: relative(SRC, path).split(sep).join('/'),
  text: readFileSync(path, 'utf8'),
}));

/** Entity class name -> the module that owns its table. */
const owners = new Map(
  files
    .filter((f) => f.text.includes('@Entity('))
    .flatMap((f) => [...f.text.matchAll(/export class (\w+)/g)].map((m) => [m[1], moduleOf(f.path)] as const)),
);

/** Table name -> the module that owns it, from `@Entity('name')`. */
const tables = new Map(
  files.flatMap((f) => [...f.text.matchAll(/@Entity\('(\w+)'\)/g)].map((m) => [m[1], moduleOf(f.path)] as const)),
);

/** The names a file imports as values (not `import type`, not `type X` inside the braces) from an entity file. */
function valueImportsFromEntities(text: string): string[] {
  return [...text.matchAll(/^import (?!type )\{([^}]*)\} from '[^']*\.entity\.js';/gm)].flatMap((m) =>
    m[1]
      .split(',')
      .map((name) => name.trim())
      .filter((name) => name && !name.startsWith('type ')),
  );
}

describe('one owner per table', () => {
  it('finds the entities', () => {
    expect(owners.get('Message')).toBe('conversations');
    expect(owners.get('Agent')).toBe('agents');
    expect(owners.get('IdempotencyKey')).toBe('idempotency');
    expect(owners.size).toBeGreaterThanOrEqual(8);
  });

  it('uses an entity class as a value only in the module that owns its table', () => {
    const strays = files
      .filter((f) => !EXEMPT.some((pattern) => pattern.test(f.rel)))
      .flatMap((f) =>
        valueImportsFromEntities(f.text)
          .filter((name) => owners.has(name) && owners.get(name) !== moduleOf(f.path))
          .map((name) => `${f.rel} uses ${name} (table of ${owners.get(name)}/)`),
      );
    expect(strays).toEqual([]);
  });

  it('names a table in hand-written SQL only in the module that owns it', () => {
    const strays = files
      .filter((f) => !EXEMPT.some((pattern) => pattern.test(f.rel)))
      .flatMap((f) =>
        [...f.text.matchAll(/\b(?:FROM|JOIN|INTO|UPDATE)\s+"?(\w+)"?/g)]
          .map((m) => m[1])
          .filter((table) => tables.has(table) && tables.get(table) !== moduleOf(f.path))
          .map((table) => `${f.rel} names ${table} (table of ${tables.get(table)}/)`),
      );
    expect(tables.get('messages')).toBe('conversations');
    expect(strays).toEqual([]);
  });
});

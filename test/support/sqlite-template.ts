import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../src/database/data-source-options.js';
import { ENTITIES } from '../../src/entities.js';

/**
 * A new SQLite file for a test app, copied from one the migrations already ran on: running them
 * (some 350 statements, each synced) is most of a test app's start on SQLite, and the suite starts
 * several hundred. The template is made with the application's own data source options, once per
 * content of src/database/migrations/ and data-source-options.ts (their hash names the file), and
 * shared by every test file and worker through node_modules/.cache.
 */
const MIGRATIONS = fileURLToPath(new URL('../../src/database/migrations', import.meta.url));
/** How a file is made and opened (its page size, for one). */
const OPTIONS = fileURLToPath(new URL('../../src/database/data-source-options.ts', import.meta.url));
const CACHE = fileURLToPath(new URL('../../node_modules/.cache/chat-memory-tests', import.meta.url));

export async function copyMigratedSqlite(dbPath: string): Promise<void> {
  const template = join(CACHE, `migrated-${migrationsHash()}.sqlite`);
  if (!existsSync(template)) await buildTemplate(template);
  copyFileSync(template, dbPath);
}

async function buildTemplate(template: string): Promise<void> {
  mkdirSync(CACHE, { recursive: true });
  // Built under a name of its own, then renamed: another worker never copies a half-built file.
  const building = `${template}.${process.pid}.building`;
  const ds = new DataSource(dataSourceOptions({ kind: 'sqlite', path: building }, ENTITIES));
  try {
    await ds.initialize();
  } finally {
    if (ds.isInitialized) await ds.destroy();
  }
  // Closing the last connection checkpoints the WAL into the file and deletes it.
  if (existsSync(`${building}-wal`)) throw new Error(`${building}-wal is still there after closing it`);
  renameSync(building, template);
  rmSync(`${building}-shm`, { force: true });
}

let hashed: string | undefined;
function migrationsHash(): string {
  if (hashed) return hashed;
  const hash = createHash('sha256');
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts')) hash.update(entry.name).update(readFileSync(path));
    }
  };
  walk(MIGRATIONS);
  hash.update(readFileSync(OPTIONS));
  hashed = hash.digest('hex').slice(0, 16);
  return hashed;
}

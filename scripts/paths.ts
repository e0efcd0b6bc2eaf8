import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root: the nearest folder above this file whose package.json is this project's. */
export const ROOT = findRoot(dirname(fileURLToPath(import.meta.url)));

export const OPENAPI_FILE = join(ROOT, 'docs/openapi.json');
export const CLIENT_SCHEMA_FILE = join(ROOT, 'clients/typescript/src/schema.ts');

function findRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && JSON.parse(readFileSync(manifest, 'utf8')).name === 'chat-memory') return dir;
    if (dirname(dir) === dir) throw new Error(`No chat-memory package.json above ${from}`);
  }
}

// Compiles the service (tsconfig.build.json into dist/) only when a source changed since the last
// successful build: `npm start`, `npm run keys` and `npm run chat` run it first. "Changed" is any
// difference in the list of inputs or in one's modification time or size, so an edit, a new file,
// a deleted file or a checkout of older files all count. The compile itself is incremental
// (dist/.tsbuildinfo, shared with test/run-all.sh). Quiet when nothing changed; compiler errors
// fail it (exit code of tsc) and the next run tries again.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';

const INPUTS = ['src', 'ormconfig.ts', 'tsconfig.json', 'tsconfig.build.json'];
const OUT = 'dist';
const STAMP = join(OUT, '.build-inputs.json');

/** Every input file with "mtime size", specs left out (the build excludes them). */
function inputs() {
  const files = {};
  const visit = (path) => {
    let stat;
    try {
      stat = statSync(path);
    } catch {
      return; // an optional input (ormconfig.ts) that is absent
    }
    if (stat.isDirectory()) {
      for (const name of readdirSync(path).sort()) visit(join(path, name));
    } else if (!path.endsWith('.spec.ts')) {
      files[relative('.', path)] = `${stat.mtimeMs} ${stat.size}`;
    }
  };
  for (const input of INPUTS) visit(input);
  return files;
}

function readStamp() {
  try {
    return JSON.parse(readFileSync(STAMP, 'utf8')).files ?? {};
  } catch {
    return undefined;
  }
}

const now = inputs();
const before = readStamp();
const same = (a, b) =>
  Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([path, seen]) => b[path] === seen);
if (before && same(now, before)) process.exit(0);

console.error('Compiling the TypeScript sources (changed since the last build)…');
// Without dist/ the build info would claim outputs that are gone: start from nothing.
if (!existsSync(join(OUT, 'src'))) rmSync(join(OUT, '.tsbuildinfo'), { force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const result = spawnSync(
  process.execPath,
  [tsc, '-p', 'tsconfig.build.json', '--incremental', '--tsBuildInfoFile', join(OUT, '.tsbuildinfo')],
  { stdio: 'inherit' },
);
if (result.status !== 0) {
  rmSync(STAMP, { force: true });
  process.exit(result.status ?? 1);
}
// tsc never deletes the output of a source that is gone: a stale module must not stay importable.
for (const path of Object.keys(before ?? {})) {
  if (path in now || !path.endsWith('.ts')) continue;
  const js = join(OUT, path.replace(/\.ts$/, '.js'));
  rmSync(js, { force: true });
  rmSync(`${js}.map`, { force: true });
}
writeFileSync(STAMP, `${JSON.stringify({ files: now })}\n`);

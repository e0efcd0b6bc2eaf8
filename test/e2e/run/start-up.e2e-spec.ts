import { execFile, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { dirname, join, relative } from 'node:path';
import { promisify } from 'node:util';
import { BUILT_MAIN, freePort, ROOT, startBuiltServer, type ServerProcess } from '../../support/server-process.js';
import { databaseUrlFor, tempDir } from '../../support/test-app.js';

const run = promisify(execFile);

/**
 * What a production install holds: package.json, dist/, web/ and the packages of `dependencies`
 * with theirs (as `npm ci --omit=dev` installs them), no development package. Hard links, so it
 * takes about a second; nothing writes to them (`npm prune` would: it rewrites the hidden lock
 * file node_modules/.package-lock.json in place, the project's own through the link).
 */
async function productionInstall(into: string): Promise<void> {
  // `npm ls` exits 1 on a tree it finds fault with (an extraneous package) but still lists it.
  const { stdout } = await run('npm', ['ls', '--omit=dev', '--all', '--parseable'], {
    cwd: ROOT,
    maxBuffer: 16 * 1024 * 1024,
  }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
  // The packages at the top of node_modules (a package's own node_modules comes with it).
  const packages = [...new Set(stdout.split('\n').map((path) => relative(ROOT, path)))].filter((path) =>
    /^node_modules\/(@[^/]+\/)?[^/]+$/.test(path),
  );
  const byFolder = new Map<string, string[]>([['.', ['dist', 'web']]]);
  for (const path of packages) byFolder.set(dirname(path), [...(byFolder.get(dirname(path)) ?? []), path]);
  for (const [folder, paths] of byFolder) {
    mkdirSync(join(into, folder), { recursive: true });
    const from = paths.map((path) => join(ROOT, path));
    // Hard links need one file system; elsewhere, copies.
    await run('cp', ['-al', ...from, join(into, folder)]).catch(() => run('cp', ['-a', ...from, join(into, folder)]));
  }
  copyFileSync(join(ROOT, 'package.json'), join(into, 'package.json'));
}

/** What an operator sees when starting and stopping the built server (npm run build first). */
describe('starting and stopping the built server', () => {
  let tmp: ReturnType<typeof tempDir>;
  let server: ServerProcess | undefined;

  beforeAll(() => {
    tmp = tempDir();
  });
  afterEach(async () => {
    await server?.stop('SIGKILL');
    server = undefined;
  });
  afterAll(() => tmp.remove());

  const lines = (output: string) => output.trim().split('\n').filter(Boolean);

  it('logs one line when stopped by SIGTERM or SIGINT, and no line per health probe at the default level', async () => {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      server = await startBuiltServer({ DATABASE_URL: databaseUrlFor(`${tmp.dir}/${signal}.sqlite`) });
      for (const path of ['/health', '/health/ready', '/health'])
        expect((await fetch(`${server.url}${path}`)).status).toBe(200);
      expect((await fetch(`${server.url}/api/conversations`)).status).toBe(200);
      const exit = await server.stop(signal);
      const output = server.output();
      server = undefined;
      expect(exit.signal).not.toBe('SIGKILL'); // it stopped by itself
      expect(output).not.toMatch(/GET \/health/);
      // Other requests keep their line.
      expect(output).toMatch(/GET \/api\/conversations 200/);
      expect(lines(output).filter((line) => line.includes(signal))).toEqual([
        expect.stringMatching(new RegExp(`Received ${signal}: shutting down`)),
      ]);
    }
  }, 120_000);

  it('starts and answers from a production install, which holds no development package', async () => {
    const install = join(tmp.dir, 'production');
    await productionInstall(install);
    expect(existsSync(join(install, 'node_modules', 'typeorm'))).toBe(true);
    expect(existsSync(join(install, 'node_modules', 'jest'))).toBe(false);
    server = await startBuiltServer({ DATABASE_URL: databaseUrlFor(`${tmp.dir}/production.sqlite`) }, 60_000, install);
    const answer = await fetch(`${server.url}/api/chat`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ message: 'hello from a production install' }),
    });
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { reply: string }).reply).toContain('hello from a production install');
    // The page, the libraries it is served from node_modules, and the API's documentation.
    for (const path of ['/', '/vendor/marked.esm.js', '/vendor/katex/katex.mjs', '/api/docs', '/api/docs-json'])
      expect({ path, status: (await fetch(`${server.url}${path}`)).status }).toEqual({ path, status: 200 });
  }, 120_000);

  it('says which model answers: no model configured, or the echo model chosen with LLM_MODEL=echo', async () => {
    server = await startBuiltServer({ DATABASE_URL: databaseUrlFor(`${tmp.dir}/none.sqlite`) });
    expect(server.output()).toContain(
      'No model configured (LLM_BASE_URL / OPENAI_API_KEY): the offline echo model answers.',
    );
    await server.stop('SIGTERM');

    server = await startBuiltServer({
      DATABASE_URL: databaseUrlFor(`${tmp.dir}/echo.sqlite`),
      LLM_MODEL: 'echo',
      LLM_BASE_URL: 'http://127.0.0.1:9/v1',
    });
    expect(server.output()).not.toContain('No model configured');
    expect(server.output()).toContain('LLM_MODEL=echo: the offline echo model answers');
  }, 120_000);

  it('prints one line naming the port and PORT, and exits non-zero, when the port is in use', async () => {
    const port = await freePort();
    const taken: Server = createServer();
    await new Promise<void>((resolve) => taken.listen(port, '127.0.0.1', resolve));
    try {
      const child = spawn(process.execPath, [BUILT_MAIN], {
        env: {
          PATH: process.env.PATH ?? '/usr/bin:/bin',
          HOME: process.env.HOME ?? '/tmp',
          NODE_OPTIONS: '',
          HOST: '127.0.0.1',
          PORT: String(port),
          LLM_MODEL: 'echo',
          DATABASE_URL: databaseUrlFor(`${tmp.dir}/taken.sqlite`),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
      const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
      expect(code).not.toBe(0);
      expect(code).not.toBeNull();
      expect(output).not.toMatch(/^\s+at /m); // no stack trace
      const errors = lines(output).filter((line) => !line.includes('echo model'));
      expect(errors).toEqual([expect.stringMatching(new RegExp(`127\\.0\\.0\\.1:${port}.*in use.*PORT`))]);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  }, 120_000);
});

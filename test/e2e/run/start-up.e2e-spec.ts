import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { BUILT_MAIN, freePort, startBuiltServer, type ServerProcess } from '../../support/server-process.js';
import { databaseUrlFor, tempDir } from '../../support/test-app.js';

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

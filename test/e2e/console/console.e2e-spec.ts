import { execFileSync, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { createChatMemoryClient } from '../../../clients/typescript/src/index.js';
import { ROOT } from '../../../scripts/paths.js';
import { runConsole } from '../../../src/surfaces/console/run-console.js';
import { FakeOpenAiServer } from '../../fakes/fake-openai-server.js';
import { startTestApp, tempDir, type TestApp } from '../../support/test-app.js';
import { until } from '../../support/until.js';

// The console chat (npm run chat) driven through its standard input and output, against the
// real server: in-process for the conversations, and once as its own process with piped stdin.

const KEYS = ['ann', 'ben', 'cid', 'dan', 'eve', 'fay', 'gus'].map((name) => ({ name, key: `${name}-console-key-42` }));

function collector() {
  let text = '';
  const stream = new Writable({
    write(chunk, _encoding, done) {
      text += String(chunk);
      done();
    },
  });
  return { stream, text: () => text };
}

describe('console chat', () => {
  let fake: FakeOpenAiServer;
  let t: TestApp;
  let tmp: ReturnType<typeof tempDir>;
  let url: string;
  const keys = new Map(KEYS.map(({ name, key }) => [name, key]));
  const api = (name: string) => createChatMemoryClient({ baseUrl: url, apiKey: keys.get(name) });

  /** Pipes the lines in, like `printf 'a\nb\n' | npm run chat`, and waits for the console to exit. */
  async function pipe(user: string, lines: string[], agent?: string) {
    const input = new PassThrough();
    const [out, err] = [collector(), collector()];
    input.end(lines.map((line) => `${line}\n`).join(''));
    const options = { url, key: keys.get(user), agent };
    const code = await runConsole(options, { input, output: out.stream, errors: err.stream, terminal: false });
    return { code, out: out.text(), err: err.text() };
  }

  beforeAll(async () => {
    fake = await FakeOpenAiServer.start();
    tmp = tempDir();
    const API_KEYS = KEYS.map(({ name, key }) => `${name}:${key}`).join(',');
    t = await startTestApp({ dbPath: `${tmp.dir}/console.sqlite`, llmBaseUrl: fake.url, env: { API_KEYS } });
    url = await t.url();
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
    tmp.remove();
  });
  beforeEach(() => fake.reset());

  it('sends each piped line, prints each reply, keeps the conversation and exits 0 at the end of the input', async () => {
    const { code, out, err } = await pipe('ann', ['My name is Ada.', '', 'What is my name?']);
    expect({ code, out, err }).toEqual({
      code: 0,
      out: 'reply to: My name is Ada.\nreply to: What is my name?\n',
      err: '',
    });
    expect(fake.completions.map((c) => c.body.stream)).toEqual([true, true]);
    expect(fake.lastCompletion.body.messages!.map((m) => m.content)).toEqual([
      'My name is Ada.',
      'reply to: My name is Ada.',
      'What is my name?',
    ]);
    const { data } = await api('ann').GET('/api/conversations');
    expect(data!.items.map((c) => c.title)).toEqual(['My name is Ada.']);
  });

  it('/new starts a conversation, /list numbers them, /use N continues one', async () => {
    const { code, out } = await pipe('ben', ['first', '/new', 'second', '/list', '/use 2', 'third']);
    expect(code).toBe(0);
    const lines = out.split('\n');
    expect(lines).toContain('New conversation: your next message starts it.');
    expect(lines.filter((l) => /^[ *] \d\. /.test(l)).map((l) => l.replace(/ {2}\(.*\)$/, ''))).toEqual([
      '* 1. second',
      '  2. first',
    ]);
    expect(lines).toContain('Using "first" (2 messages).');
    const { data } = await api('ben').GET('/api/conversations');
    const first = data!.items.find((c) => c.title === 'first')!;
    const full = await api('ben').GET('/api/conversations/{id}', { params: { path: { id: first.id } } });
    expect(full.data!.messages.map((m) => m.content)).toEqual(['first', 'reply to: first', 'third', 'reply to: third']);
  });

  it('/agent NAME creates or picks an agent and continues its latest conversation; /agent none leaves it', async () => {
    const { code, out } = await pipe(
      'cid',
      ['/agent Pirate', 'Ahoy', '/agent none', 'plain', '/agent pirate', 'Again', '/agent'],
      undefined,
    );
    expect(code).toBe(0);
    expect(out.split('\n')).toEqual([
      'Created agent Pirate.',
      'Agent Pirate: your next message starts a conversation.',
      'reply to: Ahoy',
      'No agent: your next message starts a plain conversation.',
      'reply to: plain',
      'Agent Pirate: continuing its latest conversation.',
      'reply to: Again',
      '* Pirate',
      '',
    ]);
    const { data } = await api('cid').GET('/api/conversations');
    expect(data!.items.map((c) => [c.title, Boolean(c.agentId)])).toEqual([
      ['Ahoy', true],
      ['plain', false],
    ]);
  });

  it('starts with --agent, stops at /quit, and reports errors without stopping', async () => {
    fake.enqueue({ kind: 'status', status: 500, message: 'model down' });
    const { code, out, err } = await pipe(
      'dan',
      ['/help', 'first try', 'second try', '/use 9', '/bogus', '/quit', 'never sent'],
      'Helper',
    );
    expect(code).toBe(0);
    expect(out).toContain('/use N        continue conversation N of the last /list');
    expect(out).toContain('Created agent Helper.');
    expect(out).toContain('reply to: second try\n');
    expect(err.split('\n')).toEqual([
      expect.stringMatching(
        /^Error 502: The model server answered 500.*\(the conversation keeps the partial reply; send again to retry\)$/,
      ),
      'There is no conversation 9: /list shows the numbers.',
      'Unknown command /bogus: /help lists the commands',
      '',
    ]);
    expect(fake.completions).toHaveLength(2);
  });

  it('refuses a wrong key and an unreachable server with exit code 1', async () => {
    keys.set('mallory', 'not-a-configured-key');
    expect(await pipe('mallory', ['hello'])).toEqual({
      code: 1,
      out: '',
      err: expect.stringMatching(/^Error 401: Missing or invalid API key/),
    });
    const closed = `http://127.0.0.1:${await freePort()}`;
    const input = new PassThrough();
    const err = collector();
    input.end('hello\n');
    const code = await runConsole(
      { url: closed, key: undefined, agent: undefined },
      { input, output: collector().stream, errors: err.stream, terminal: false },
    );
    expect({ code, err: err.text() }).toEqual({
      code: 1,
      err: expect.stringMatching(new RegExp(`^Cannot reach ${closed}: .*ECONNREFUSED`)),
    });
    expect(fake.completions).toHaveLength(0);
  });

  it('at a terminal: prompts, and Ctrl+C stops the reply being streamed, then leaves', async () => {
    let release!: () => void;
    fake.enqueue({
      kind: 'stream',
      chunks: ['Counting: ', 'one, ', 'two'],
      hold: new Promise<void>((r) => (release = r)),
    });
    const input = new PassThrough();
    const [out, err] = [collector(), collector()];
    const running = runConsole(
      { url, key: keys.get('eve'), agent: undefined },
      { input, output: out.stream, errors: err.stream, terminal: true },
    );
    await until(() => out.text().includes('> '));
    input.write('count\r');
    await until(() => out.text().includes('Counting: one, '));
    input.write('\x03'); // Ctrl+C while the reply streams: stop it
    await until(() => err.text().includes('[reply stopped]'));
    release();
    input.write('\x03'); // Ctrl+C at the prompt: leave
    expect(await running).toBe(0);
    expect(err.text()).toMatch(/^Connected to http:\/\/127\.0\.0\.1:\d+\. Type a message, or \/help\./);
    const { data } = await api('eve').GET('/api/conversations');
    const conversation = await api('eve').GET('/api/conversations/{id}', {
      params: { path: { id: data!.items[0].id } },
    });
    expect(conversation.data!.messages[1]).toMatchObject({ status: 'cancelled', content: 'Counting: one, ' });
  });

  describe('as its own process (compiled like npm run chat)', () => {
    const outDir = join(ROOT, 'dist', `console-e2e-${process.pid}`);
    let main: string;

    beforeAll(() => {
      const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
      const flags = [
        '--outDir',
        outDir,
        '--rootDir',
        ROOT,
        '--module',
        'nodenext',
        '--target',
        'es2023',
        '--types',
        'node',
        '--skipLibCheck',
        '--strict',
      ];
      execFileSync(process.execPath, [tsc, join(ROOT, 'src/surfaces/console/main.ts'), '--ignoreConfig', ...flags], {
        stdio: 'pipe',
      });
      main = join(outDir, 'src/surfaces/console/main.js');
    });
    afterAll(() => rmSync(outDir, { recursive: true, force: true }));

    function run(args: string[], stdin: string): Promise<{ code: number | null; out: string; err: string }> {
      const child = spawn(process.execPath, [main, ...args], {
        env: { ...process.env, NODE_OPTIONS: '' },
        stdio: 'pipe',
      });
      let out = '';
      let err = '';
      child.stdout.on('data', (chunk) => (out += chunk));
      child.stderr.on('data', (chunk) => (err += chunk));
      child.stdin.end(stdin);
      return new Promise((resolve) => child.on('close', (code) => resolve({ code, out, err })));
    }

    it('reads piped stdin line by line, streams the replies to stdout and exits 0 at EOF', async () => {
      const result = await run(['--url', url, `--key=${keys.get('fay')}`], 'Hello there\n/list\nHow are you?\n');
      expect(result.err).toBe('');
      expect(result.code).toBe(0);
      const lines = result.out.split('\n');
      expect(lines[0]).toBe('reply to: Hello there');
      expect(lines[1]).toMatch(/^\* 1\. Hello there {2}\(\d{4}-\d\d-\d\d \d\d:\d\d\)$/);
      expect(lines.slice(2)).toEqual(['reply to: How are you?', '']);
    });

    it('prints its usage for --help (exit 0) and for a bad argument (exit 64)', async () => {
      expect(await run(['--help'], '')).toEqual({
        code: 0,
        out: expect.stringContaining('Usage: npm run chat -- [--url URL]'),
        err: '',
      });
      const bad = await run(['--port', '3000'], '');
      expect(bad).toEqual({ code: 64, out: '', err: expect.stringMatching(/^Unknown argument: --port\n\nUsage:/) });
    });
  });
});

async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

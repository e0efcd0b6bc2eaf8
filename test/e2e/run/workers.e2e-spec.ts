import { startBuiltServer, type ServerProcess } from '../../support/server-process.js';
import { databaseUrlFor, DIALECT, tempDir } from '../../support/test-app.js';
import { until } from '../../support/until.js';

/** The pids that logged a line matching `pattern` (Nest's logger starts each line with the pid). */
const pidsLogging = (output: string, pattern: RegExp) =>
  new Set(
    output
      .split('\n')
      .filter((line) => pattern.test(line))
      .map((line) => Number(/^\[Nest\] (\d+)/.exec(line)?.[1])),
  );

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** WORKERS=N on PostgreSQL: N processes of the built server share the port, each a whole instance. */
(DIALECT === 'postgres' ? describe : describe.skip)('WORKERS: processes sharing the port', () => {
  let tmp: ReturnType<typeof tempDir>;
  let server: ServerProcess | undefined;
  beforeAll(() => (tmp = tempDir()));
  afterEach(async () => {
    await server?.stop('SIGKILL');
    server = undefined;
  });
  afterAll(() => tmp.remove());

  it('answers from every worker over one port, on one database, replaces one that dies, and stops them all on SIGTERM', async () => {
    server = await startBuiltServer({ DATABASE_URL: databaseUrlFor(`${tmp.dir}/workers.sqlite`), WORKERS: '2' });
    await until(() => pidsLogging(server!.output(), /Listening on http:\/\/127\.0\.0\.1/).size === 2, 60_000, 100);
    const workers = [...pidsLogging(server.output(), /Listening on/)];
    expect(workers).not.toContain(server.child.pid);

    // Each request on a connection of its own: the primary hands connections to the workers in turn.
    const asked = [];
    for (let i = 0; i < 8; i++) {
      const res = await fetch(`${server.url}/api/chat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', connection: 'close' },
        body: JSON.stringify({ message: `question ${i}` }),
      });
      expect(res.status).toBe(200);
      asked.push(((await res.json()) as { conversationId: string }).conversationId);
    }
    expect(pidsLogging(server.output(), /POST \/api\/chat 200/)).toEqual(new Set(workers));
    // One database: every worker lists what any of them stored.
    for (let i = 0; i < 2; i++) {
      const list = await fetch(`${server.url}/api/conversations?limit=20`, { headers: { connection: 'close' } });
      const ids = ((await list.json()) as { items: Array<{ id: string }> }).items.map((c) => c.id);
      expect(ids.sort()).toEqual([...asked].sort());
    }

    // A worker that dies is replaced; the port keeps answering meanwhile from the other.
    process.kill(workers[0], 'SIGKILL');
    await until(() => pidsLogging(server!.output(), /Listening on/).size === 3, 60_000, 100);
    const all = [...pidsLogging(server.output(), /Listening on/)];
    expect(server.output()).toContain(`Worker ${workers[0]} stopped (SIGKILL); starting another`);
    for (let i = 0; i < 4; i++)
      expect((await fetch(`${server.url}/api/conversations`, { headers: { connection: 'close' } })).status).toBe(200);

    const exit = await server.stop('SIGTERM');
    expect(exit).toEqual({ code: 0, signal: null });
    expect(all.filter(alive)).toEqual([]);
    server = undefined;
  }, 120_000);
});

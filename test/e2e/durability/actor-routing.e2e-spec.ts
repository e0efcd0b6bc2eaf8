import pg from 'pg';
import { DataSource } from 'typeorm';
import { FakeOpenAiServer } from '../../fakes/fake-openai-server.js';
import { followedReply } from '../../support/followed-reply.js';
import { deltaText } from '../../support/sse-client.js';
import { until } from '../../support/until.js';
import { ALICE_KEY, asActor, DIALECT, startTestApp, tempDir, type TestApp } from '../../support/test-app.js';

/**
 * Every statement of a turn, a streamed reply, a list and a search that reads or writes a
 * per-actor table names the actor, so that a database distributed by actor (Citus) routes it
 * to one shard instead of every node (docs/operations.md, "Distributing by actor"). The SQL is
 * captured where it leaves for PostgreSQL; a statement names the actor when it filters each
 * per-actor table it reads or changes on `actor` (or inserts rows with their actor).
 */
(DIALECT === 'postgres' ? describe : describe.skip)('statements routed by actor', () => {
  let tmp: ReturnType<typeof tempDir>;
  let t: TestApp;
  let fake: FakeOpenAiServer;
  let perActor: string[] = [];
  let sent: string[] | null = null;
  let restore: () => void;
  const alice = asActor(() => t, ALICE_KEY);

  beforeAll(async () => {
    tmp = tempDir();
    fake = await FakeOpenAiServer.start();
    t = await startTestApp({
      dbPath: `${tmp.dir}/routing`,
      env: {
        RECALL_MODE: 'on',
        LLM_BASE_URL: fake.url,
        LLM_API_KEY: 'sk-test',
        LLM_MODEL: 'fake-model',
        SUMMARY_MODE: 'off',
        STREAM_FLUSH_MS: '20',
      },
    });
    const ds = t.app.get(DataSource);
    // Tables found by a secret's hash before the actor is known stay reference tables (see citus-readiness).
    const rows = (await ds.query(
      `SELECT DISTINCT c.relname AS "table" FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid ` +
        `WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r' AND a.attname = 'actor' AND c.relname NOT IN ('api_keys', 'oauth_grants', 'oauth_tokens')`,
    )) as { table: string }[];
    perActor = rows.map((r) => r.table);
    const clientQuery = pg.Client.prototype.query;
    pg.Client.prototype.query = function captured(this: pg.Client, config: unknown, ...rest: unknown[]) {
      const text =
        typeof config === 'string'
          ? config
          : typeof config === 'object' && config !== null && 'text' in config
            ? String((config as { text: unknown }).text)
            : null;
      if (text !== null) sent?.push(text.replace(/\s+/g, ' ').trim());
      return (clientQuery as (...args: unknown[]) => unknown).call(this, config, ...rest);
    } as typeof clientQuery;
    restore = () => {
      pg.Client.prototype.query = clientQuery;
    };
  });
  afterAll(async () => {
    restore?.();
    await t?.close();
    await fake?.close();
    tmp?.remove();
  });

  async function captured(work: () => Promise<unknown>): Promise<string[]> {
    sent = [];
    try {
      await work();
      // Work the request left behind (a reply's end, the summary's fold) has settled once the next request is answered.
      await alice.get('/health/live');
      return sent;
    } finally {
      sent = null;
    }
  }

  /** The per-actor tables `statement` reads or changes without naming their actor. */
  function unrouted(statement: string): string[] {
    const tables = perActor.filter((table) =>
      new RegExp(`(FROM|JOIN|UPDATE|INTO)\\s+(ONLY\\s+)?("?\\w+"?\\.)?"?${table}"?(\\s|\\(|$)`, 'i').test(statement),
    );
    if (tables.length === 0) return [];
    // Rows inserted with their actor are routed by it.
    const inserts = statement.match(/INSERT INTO\s+("?\w+"?\.)?"?\w+"?\s*\([^)]*"actor"[,)]/gi)?.length ?? 0;
    const predicates = (statement.match(/"?actor"?\s*(=|IN\s*\(|=\s*ANY)/gi)?.length ?? 0) + inserts;
    return predicates >= tables.length ? [] : tables;
  }
  const offenders = (statements: string[]) =>
    statements.map((s) => ({ statement: s, tables: unrouted(s) })).filter((s) => s.tables.length > 0);

  it('a turn, its streamed reply, a list and a search name the actor in every statement on a per-actor table', async () => {
    const { conversationId } = (
      await alice.post('/api/chat', { message: 'The lighthouse keeper feeds three gulls' }).expect(200)
    ).body;
    const turn = await captured(() =>
      alice.post('/api/chat', { message: 'Who feeds the gulls?', conversationId }).expect(200),
    );
    // A streamed reply whose pieces come one at a time, so its progress is saved and a follower reads it.
    const stream = await captured(async () => {
      const { gates, seen, finished } = await followedReply(fake, t, t);
      for (const [i, gate] of gates.entries()) {
        gate.resolve();
        await until(() => deltaText(seen).split(' ').filter(Boolean).length > i, 15_000);
      }
      await finished();
    });
    const list = await captured(() => alice.get('/api/conversations?limit=20').expect(200));
    const search = await captured(() => alice.get('/api/search?q=lighthouse%20gulls').expect(200));
    for (const statements of [turn, stream, list, search]) expect(statements.length).toBeGreaterThan(0);
    // The stream's progress saves and its follower's reads were among them.
    expect(stream.some((s) => s.startsWith('WITH saved AS (UPDATE "messages"'))).toBe(true);
    expect(stream.some((s) => /^SELECT .* FROM "messages" WHERE "id" = ANY/.test(s))).toBe(true);
    const found = {
      turn: offenders(turn),
      stream: offenders(stream),
      list: offenders(list),
      search: offenders(search),
    };
    expect(found).toEqual({ turn: [], stream: [], list: [], search: [] });
  });
});

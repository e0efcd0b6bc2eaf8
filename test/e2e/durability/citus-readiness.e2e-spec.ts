import { DataSource } from 'typeorm';
import { ALICE_KEY, auth, BOB_KEY, DIALECT, startTestApp, tempDir, type TestApp } from '../../support/test-app.js';

/**
 * The schema is ready to be distributed by actor (Citus: every per-actor table distributed on
 * `actor` and co-located, the tables without one made reference tables) with no change: read
 * from PostgreSQL's catalog after every migration ran. Fails naming the table or key that would
 * block distribution. (docs/operations.md, "Distributing by actor".)
 */
const REFERENCE_TABLES: Record<string, string> = {
  api_keys: 'the service-wide API keys (a handful of rows), read by every request',
  migrations: "TypeORM's record of applied migrations",
  oauth_clients: "MCP hosts' registrations (RFC 7591), made before any user approves them",
  rate_limit_counters: 'one row per client and window, deleted as windows pass',
  storage_probe: 'empty but for the write probe of /health/ready',
  telegram_updates:
    "the bot's inbox: one row per update, deleted after 24 hours; keyed by the bot, before any actor is known",
};

/**
 * Tables with an actor that are still reference tables: each row is found by a secret's hash
 * before the actor is known (as `api_keys` are), and they hold a few rows per connected host.
 */
const LOOKED_UP_BY_HASH: Record<string, string> = {
  oauth_grants: "an MCP host's authorization request and its code, found by the code's hash",
  oauth_tokens: "an MCP host's tokens, found by the access or refresh token's hash on every request",
};

(DIALECT === 'postgres' ? describe : describe.skip)('a schema ready to distribute by actor', () => {
  let tmp: ReturnType<typeof tempDir>;
  let t: TestApp;
  let ds: DataSource;

  beforeAll(async () => {
    tmp = tempDir();
    t = await startTestApp({ dbPath: `${tmp.dir}/citus` });
    ds = t.app.get(DataSource);
  });
  afterAll(async () => {
    await t?.close();
    tmp?.remove();
  });

  /** Tables of the app's schema and their columns, by attribute number. */
  const tables = async () => {
    const rows = (await ds.query(
      `SELECT c.relname AS "table", a.attnum AS "num", a.attname AS "column" FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid ` +
        `WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped`,
    )) as { table: string; num: number; column: string }[];
    const columns = new Map<string, Map<number, string>>();
    for (const r of rows) {
      if (!columns.has(r.table)) columns.set(r.table, new Map());
      columns.get(r.table)!.set(Number(r.num), r.column);
    }
    return columns;
  };

  it('has an actor on every table but a few small reference tables', async () => {
    const all = await tables();
    const withoutActor = [...all.entries()]
      .filter(([, cols]) => ![...cols.values()].includes('actor'))
      .map(([table]) => table);
    expect(withoutActor.filter((table) => !(table in REFERENCE_TABLES))).toEqual([]);
    // The allow-list names only tables that exist and have no actor.
    expect(Object.keys(REFERENCE_TABLES).filter((table) => !withoutActor.includes(table))).toEqual([]);
  });

  it('includes the actor in every primary key and unique index of a per-actor table', async () => {
    const all = await tables();
    const perActor = new Set(
      [...all.entries()]
        .filter(([table, cols]) => [...cols.values()].includes('actor') && !(table in LOOKED_UP_BY_HASH))
        .map(([table]) => table),
    );
    const keys = (await ds.query(
      `SELECT c.relname AS "table", i.relname AS "index", x.indisprimary AS "primary", x.indkey::text AS "columns" FROM pg_index x ` +
        `JOIN pg_class c ON c.oid = x.indrelid JOIN pg_class i ON i.oid = x.indexrelid ` +
        `WHERE c.relnamespace = current_schema()::regnamespace AND x.indisunique`,
    )) as { table: string; index: string; primary: boolean; columns: string }[];
    const blocking = keys
      .filter((k) => perActor.has(k.table))
      .filter(
        (k) =>
          !k.columns
            .split(' ')
            .map((n) => all.get(k.table)!.get(Number(n)))
            .includes('actor'),
      )
      .map(
        (k) =>
          `${k.table}: ${k.primary ? 'primary key' : 'unique index'} ${k.index} (${k.columns
            .split(' ')
            .map((n) => all.get(k.table)!.get(Number(n)) ?? `expression ${n}`)
            .join(', ')})`,
      );
    expect(blocking).toEqual([]);
    // Every per-actor table has a primary key.
    expect([...perActor].filter((table) => !keys.some((k) => k.table === table && k.primary))).toEqual([]);
  });

  it('carries the actor on both sides of every foreign key between per-actor tables, and no reference table points at one', async () => {
    const all = await tables();
    const perActor = new Set(
      [...all.entries()].filter(([, cols]) => [...cols.values()].includes('actor')).map(([table]) => table),
    );
    const fks = (await ds.query(
      `SELECT con.conname AS "name", c.relname AS "table", r.relname AS "references", con.conkey::text AS "columns", con.confkey::text AS "referenced" ` +
        `FROM pg_constraint con JOIN pg_class c ON c.oid = con.conrelid JOIN pg_class r ON r.oid = con.confrelid ` +
        `WHERE con.contype = 'f' AND c.relnamespace = current_schema()::regnamespace`,
    )) as { name: string; table: string; references: string; columns: string; referenced: string }[];
    expect(fks.length).toBeGreaterThan(5);
    const names = (table: string, list: string) =>
      list
        .replace(/[{}]/g, '')
        .split(',')
        .map((n) => all.get(table)!.get(Number(n))!);
    const blocking = fks
      .filter((fk) => {
        if (!perActor.has(fk.references)) return false; // to a reference table: allowed
        if (!perActor.has(fk.table)) return true; // a reference table pointing at a distributed one
        const from = names(fk.table, fk.columns);
        const to = names(fk.references, fk.referenced);
        const at = from.indexOf('actor');
        return at < 0 || to[at] !== 'actor';
      })
      .map(
        (fk) =>
          `${fk.table} -> ${fk.references}: ${fk.name} (${names(fk.table, fk.columns).join(', ')}) -> (${names(fk.references, fk.referenced).join(', ')})`,
      );
    expect(blocking).toEqual([]);
  });

  it('fills the actor of existing rows from their conversation when the migration runs, and keeps every row', async () => {
    // Rows of two actors in every per-actor table the API writes.
    for (const key of [ALICE_KEY, BOB_KEY]) {
      const id = (await t.http().post('/api/chat').set(auth(key)).send({ message: 'hello' }).expect(200)).body
        .conversationId;
      await t
        .http()
        .patch(`/api/conversations/${id}`)
        .set(auth(key))
        .send({ tags: ['work', 'later'] })
        .expect(200);
    }
    const counts = async () =>
      Object.fromEntries(
        await Promise.all(
          ['conversations', 'messages', 'messages_search', 'threads', 'conversation_tags'].map(async (table) => [
            table,
            Number((await ds.query(`SELECT count(*) AS n FROM "${table}"`))[0].n),
          ]),
        ),
      );
    const before = await counts();
    expect(before.messages).toBeGreaterThanOrEqual(4);
    expect(before.conversation_tags).toBe(4);

    const names = ds.migrations.map((m) => m.name ?? m.constructor.name);
    const index = names.findIndex((name) => /ActorKeys/.test(name));
    expect(index).toBeGreaterThan(0);
    for (let i = names.length - 1; i >= index; i--) await ds.undoLastMigration();
    expect(
      (
        await ds.query(
          `SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'messages' AND column_name = 'actor'`,
        )
      ).length,
    ).toBe(0);
    await ds.runMigrations();

    expect(await counts()).toEqual(before);
    for (const table of ['messages', 'threads', 'conversation_tags']) {
      const wrong = await ds.query(
        `SELECT count(*) AS n FROM "${table}" t JOIN "conversations" c ON c."id" = t."conversation_id" WHERE t."actor" <> c."actor"`,
      );
      expect([table, Number(wrong[0].n)]).toEqual([table, 0]);
    }
    const wrongSearch = await ds.query(
      `SELECT count(*) AS n FROM "messages_search" s JOIN "messages" m ON m."id" = s."message_id" WHERE s."actor" <> m."actor"`,
    );
    expect(Number(wrongSearch[0].n)).toBe(0);
    // And the service goes on as before: a turn, a search, an export.
    const list = (await t.http().get('/api/conversations?q=hello').set(auth(ALICE_KEY)).expect(200)).body.items;
    expect(list).toHaveLength(1);
    await t
      .http()
      .post('/api/chat')
      .set(auth(ALICE_KEY))
      .send({ conversationId: list[0].id, message: 'again' })
      .expect(200);
    await t.http().get(`/api/conversations/${list[0].id}/export`).set(auth(ALICE_KEY)).expect(200);
  });
});

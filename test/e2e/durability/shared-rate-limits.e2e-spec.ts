import { createHash } from 'node:crypto';
import { DatabaseService } from '../../../src/database/database.service.js';
import { purgeEndedWindows } from '../../../src/rate-limits/postgres-rate-store.js';
import { RateLimitsService } from '../../../src/rate-limits/rate-limits.service.js';
import { ALICE_KEY, auth, BOB_KEY, DIALECT, startTestApp, tempDir, type TestApp } from '../../support/test-app.js';
import { until } from '../../support/until.js';

const CAROL_KEY = 'carol-key-5555555555';

/**
 * Rate limits with several instances on one PostgreSQL database: the counters are kept in the
 * database, so an actor gets the limit once in all, not once per instance.
 * (SQLite is a one-instance database: this runs on PostgreSQL only.)
 */
(DIALECT === 'postgres' ? describe : describe.skip)('rate limits shared by two instances on one database', () => {
  let tmp: ReturnType<typeof tempDir>;
  let a: TestApp;
  let b: TestApp;

  beforeEach(async () => {
    tmp = tempDir();
    const env = {
      API_KEYS: `alice:${ALICE_KEY},bob:${BOB_KEY},carol:${CAROL_KEY}`,
      RATE_LIMIT_PER_MINUTE: '6',
      AUTH_FAILURES_PER_MINUTE: '4',
    };
    const dbPath = `${tmp.dir}/shared`;
    a = await startTestApp({ dbPath, env });
    b = await startTestApp({ dbPath, env });
  });
  afterEach(async () => {
    await a.close();
    await b.close();
    tmp.remove();
  });

  it('gives an actor exactly the limit across both instances, then 429 with Retry-After', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await (i % 2 ? b : a).http().get('/api/conversations').set(auth(ALICE_KEY));
      statuses.push(res.status);
      if (res.status === 429) {
        expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
        expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(60);
        expect(res.body).toMatchObject({
          statusCode: 429,
          message: expect.stringMatching(/RATE_LIMIT_PER_MINUTE; retry in \d+ s/),
        });
      }
    }
    expect(statuses).toEqual([...Array(6).fill(200), ...Array(6).fill(429)]);
    await b.http().get('/api/conversations').set(auth(BOB_KEY)).expect(200);
  });

  it('counts concurrent requests on both instances exactly: no more than the limit succeed', async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? b : a).http().get('/api/conversations').set(auth(CAROL_KEY))),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([...Array(6).fill(200), ...Array(14).fill(429)]);
  });

  it('limits failed authentications per address across both instances, never the health probes', async () => {
    for (const app of [a, a, b, b])
      await app.http().get('/api/conversations').set(auth('wrong-key-00000000')).expect(401);
    const refused = await a.http().get('/api/conversations').set(auth('wrong-key-00000000')).expect(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.body.message).toMatch(/AUTH_FAILURES_PER_MINUTE/);
    // The other instance learns it from the shared count at the next failure.
    await b.http().get('/api/conversations').set(auth('wrong-key-00000000')).expect(429);
    for (const app of [a, b]) await app.http().get('/api/conversations').set(auth(ALICE_KEY)).expect(429);

    const probes = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? b : a).http().get('/health')));
    expect(probes.map((r) => r.status)).toEqual(Array(40).fill(200));
  });

  it('keeps only hashed keys in the shared table, one row per key, and purges ended windows', async () => {
    await a.http().get('/api/conversations').set(auth(ALICE_KEY)).expect(200);
    const rows: { key: string; hits: number }[] = await a.app
      .get(DatabaseService)
      .read((em) => em.query('SELECT "key", "hits" FROM "rate_limit_counters"'));
    expect(rows).toEqual([{ key: `requests:${createHash('sha256').update('api:alice').digest('hex')}`, hits: 1 }]);

    const store = a.app.get(RateLimitsService).store('test:', 60_000);
    const other = b.app.get(RateLimitsService).store('test:', 60_000);
    expect((await store.increment('k')).totalHits).toBe(1);
    const second = await other.increment('k');
    expect(second.totalHits).toBe(2);
    expect(second.resetTime!.getTime()).toBeGreaterThan(Date.now());
    await other.decrement('k');
    expect((await store.get!('k'))?.totalHits).toBe(1);
    await other.resetKey('k');
    expect(await store.get!('k')).toBeUndefined();

    // A purge deletes the rows of ended windows only.
    const db = a.app.get(DatabaseService);
    const keys = async () =>
      (
        (await db.read((em) => em.query('SELECT "key" FROM "rate_limit_counters" ORDER BY "key"'))) as { key: string }[]
      ).map((r) => r.key);
    await a.app.get(RateLimitsService).store('brief:', 1).increment('k');
    expect(await purgeEndedWindows(db, 60_000)).toBe(0);
    expect(await keys()).toEqual(['brief:k', rows[0]!.key]);
    await until(async () => (await purgeEndedWindows(db, 1), !(await keys()).includes('brief:k')));
  });
});

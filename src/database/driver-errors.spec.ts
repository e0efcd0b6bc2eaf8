import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import {
  StorageBusyError,
  StorageFullError,
  StorageUnavailableError,
  type StorageError,
} from '../common/storage.errors.js';
import { DatabaseService } from './database.service.js';
import { storageErrorOf } from './driver-errors.js';

/** An error as a driver throws it, bare or wrapped by TypeORM (QueryFailedError keeps it as `driverError`). */
const raw = (code: string, message = 'failed') => Object.assign(new Error(message), { code });
const wrapped = (code: string) => Object.assign(new Error('query failed'), { driverError: raw(code) });

describe('storageErrorOf: what a driver error means for storage', () => {
  it.each([
    ['SQLITE_FULL', StorageFullError],
    ['SQLITE_BUSY', StorageBusyError],
    ['SQLITE_LOCKED_SHAREDCACHE', StorageBusyError],
    ['SQLITE_IOERR', StorageUnavailableError],
    ['SQLITE_IOERR_WRITE', StorageUnavailableError],
    ['SQLITE_READONLY', StorageUnavailableError],
    ['53100', StorageFullError],
    ['55P03', StorageBusyError],
    ['25006', StorageUnavailableError],
    ['08006', StorageUnavailableError],
    ['57P01', StorageUnavailableError],
    ['ECONNREFUSED', StorageUnavailableError],
  ])('%s, bare or wrapped by TypeORM, is a %p', (code, kind) => {
    expect(storageErrorOf(raw(code))).toBeInstanceOf(kind);
    expect(storageErrorOf(wrapped(code))).toBeInstanceOf(kind);
    expect(storageErrorOf(raw(code))?.cause).toMatchObject({ code });
  });

  it("names a lost PostgreSQL connection by pg's own words, and keeps a storage error as it is", () => {
    expect(storageErrorOf(new Error('Connection terminated unexpectedly'))).toBeInstanceOf(StorageUnavailableError);
    const full = new StorageFullError('full');
    expect(storageErrorOf(full)).toBe(full);
  });

  it('leaves what is not the storage failing alone: a constraint, a bug, a value that is no error', () => {
    for (const error of [raw('SQLITE_CONSTRAINT_UNIQUE'), wrapped('23505'), new Error('boom'), 'text', null]) {
      expect(storageErrorOf(error)).toBeNull();
    }
  });
});

/** The conversion happens once, in the database service: its callers (domain and surfaces) see StorageErrors only. */
describe('DatabaseService hands its callers storage errors, never a driver error', () => {
  let dir: string;
  let ds: DataSource;
  let db: DatabaseService;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'driver-errors-'));
    ds = await new DataSource({
      type: 'better-sqlite3',
      database: join(dir, 'db.sqlite'),
      enableWAL: true,
    }).initialize();
    await ds.query('CREATE TABLE item (id INTEGER PRIMARY KEY, body TEXT)');
    db = new DatabaseService(ds, 5_000);
  });
  afterEach(async () => {
    await db.onApplicationShutdown();
    await ds.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  const insert = (id: number) =>
    db.transaction((em) => em.query('INSERT INTO item (id, body) VALUES (?, ?)', [id, 'x']));
  const rejection = async (work: Promise<unknown>): Promise<unknown> =>
    work.then(
      () => null,
      (error: unknown) => error,
    );

  it('a write the database refuses (read-only) fails as storage_unavailable, from transaction and statement alike', async () => {
    await ds.query('PRAGMA query_only = 1');
    for (const failed of [
      await rejection(insert(1)),
      await rejection(db.statement((em) => em.query('INSERT INTO item (id) VALUES (2)'))),
    ]) {
      expect(failed).toBeInstanceOf(StorageUnavailableError);
      const cause = (failed as StorageError).cause as { code?: string; driverError?: { code?: string } };
      expect(cause.driverError?.code ?? cause.code).toBe('SQLITE_READONLY');
    }
    await ds.query('PRAGMA query_only = 0');
    await insert(3);
  });

  it('a full database fails as storage_full', async () => {
    const [{ page_count }] = (await ds.query('PRAGMA page_count')) as Array<{ page_count: number }>;
    await ds.query(`PRAGMA max_page_count = ${page_count}`);
    const failed = await rejection(
      db.transaction((em) => em.query('INSERT INTO item (id, body) VALUES (1, ?)', ['x'.repeat(100_000)])),
    );
    expect(failed).toBeInstanceOf(StorageFullError);
  });

  it('a driver error thrown inside a read is converted too; an error of the work itself reaches the caller as it is', async () => {
    expect(await rejection(db.read(() => Promise.reject(raw('SQLITE_IOERR_READ'))))).toBeInstanceOf(
      StorageUnavailableError,
    );
    const bug = new Error('the work failed');
    expect(await rejection(db.read(() => Promise.reject(bug)))).toBe(bug);
    expect(await rejection(db.transaction(() => Promise.reject(bug)))).toBe(bug);
  });
});

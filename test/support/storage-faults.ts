import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { DataSource } from 'typeorm';

/** The part of better-sqlite3's API the fault tests use (the package ships no type declarations). */
export interface SqliteFile {
  pragma(source: string): unknown;
  exec(sql: string): unknown;
  prepare(sql: string): { all(...params: unknown[]): unknown[]; get(...params: unknown[]): unknown };
  readonly inTransaction: boolean;
  close(): void;
}
type SqliteOpen = new (path: string, options?: { readonly?: boolean; fileMustExist?: boolean }) => SqliteFile;
/** A connection of its own to a SQLite file, as another process would have. */
export const SqliteDatabase = createRequire(import.meta.url)('better-sqlite3') as SqliteOpen;

/** The application's own better-sqlite3 connection, under TypeORM. */
export function rawConnection(ds: DataSource): SqliteFile {
  return (ds.driver as unknown as { databaseConnection: SqliteFile }).databaseConnection;
}

/** Caps the application's SQLite file at the pages it has now: the next write that needs a page fails with SQLITE_FULL. */
export async function fillSqliteLimit(ds: DataSource): Promise<void> {
  const [{ page_count }] = (await ds.query('PRAGMA page_count')) as Array<{ page_count: number }>;
  await ds.query(`PRAGMA max_page_count = ${page_count}`);
}

export async function freeSqliteLimit(ds: DataSource): Promise<void> {
  await ds.query('PRAGMA max_page_count = 1073741823');
}

/** A small tmpfs (root only): a real file system that fills up. Null where it cannot be mounted. */
export function mountSmallDisk(dir: string, size = '3m'): { fill(): void; free(): void; unmount(): void } | null {
  if (process.getuid?.() !== 0) return null;
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'ignore' });
  } catch {
    return null;
  }
  return {
    fill: () => {
      try {
        execFileSync('dd', ['if=/dev/zero', `of=${dir}/filler`, 'bs=4k'], { stdio: 'ignore' });
      } catch {
        // dd ends with "No space left on device": that is the point.
      }
    },
    free: () => execFileSync('rm', ['-f', `${dir}/filler`]),
    unmount: () => execFileSync('umount', ['-l', dir], { stdio: 'ignore' }),
  };
}

/**
 * A TCP relay in front of PostgreSQL that can be cut: `down()` drops every connection and
 * refuses new ones (as a stopped server or a lost network does), `up()` serves again.
 */
export class CuttableRelay {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  async up(): Promise<void> {
    const server = createServer((client) => {
      const upstream = connect(this.targetPort, this.targetHost);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as { port: number }).port;
    this.server = server;
  }

  async down(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const s of this.sockets) s.destroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/**
 * Makes the application's next commits fail as a full disk or an I/O error makes them fail (seen
 * on a full tmpfs): SQLite has rolled the transaction back by itself ('rolled back') or kept it
 * open ('kept open'), and reports `code`. The RELEASE of an outermost savepoint commits too.
 */
export function failNextCommits(ds: DataSource, code: string, effects: Array<'rolled back' | 'kept open'>): void {
  const runner = ds.createQueryRunner();
  const raw = rawConnection(ds);
  const original = runner.query;
  const left = [...effects];
  runner.query = async function (this: unknown, sql: string, ...rest: unknown[]) {
    const commits = sql === 'COMMIT' || (/^RELEASE SAVEPOINT typeorm_/.test(sql) && raw.inTransaction);
    if (!commits || left.length === 0)
      return (original as (...a: unknown[]) => Promise<unknown>).call(runner, sql, ...rest);
    const effect = left.shift();
    if (left.length === 0) runner.query = original;
    if (effect === 'rolled back') raw.exec('ROLLBACK');
    throw Object.assign(new Error(code === 'SQLITE_FULL' ? 'database or disk is full' : 'disk I/O error'), { code });
  } as typeof runner.query;
}

import type { DataSourceOptions, EntitySchema } from 'typeorm';
import type { DatabaseTarget } from '../config/database-url.js';
import { POSTGRES_MIGRATIONS } from './migrations/postgres/index.js';
import { SQLITE_MIGRATIONS } from './migrations/sqlite/index.js';
import { configurePgDriver } from './postgres-setup.js';

const SQLITE_PAGE_SIZE = 1024;

/** Entity classes, as TypeORM takes them. */
export type EntityList = ReadonlyArray<Function | EntitySchema>;

/**
 * One definition of the data source, shared by the application and the TypeORM CLI
 * (ormconfig.ts). Migrations are per dialect, since generated SQL differs. The entities come
 * from the modules that own them (src/entities.ts lists them), so the database knows no domain.
 */
export function dataSourceOptions(target: DatabaseTarget, entities: EntityList): DataSourceOptions {
  const common = { entities: [...entities], migrationsRun: true as const, synchronize: false as const };
  if (target.kind === 'postgres') {
    configurePgDriver();
    return {
      ...common,
      type: 'postgres',
      url: target.url,
      schema: target.schema,
      migrations: POSTGRES_MIGRATIONS,
      // Unqualified names in raw queries (and the migrations) resolve to the configured schema.
      extra: {
        max: 10,
        connectionTimeoutMillis: 5_000,
        ...(target.schema ? { options: `-c search_path=${target.schema}` } : {}),
      },
    };
  }
  return {
    ...common,
    type: 'better-sqlite3',
    database: target.path,
    migrations: SQLITE_MIGRATIONS,
    // Each migration in its own transaction, so one that must rebuild a table can manage its own.
    migrationsTransactionMode: 'each',
    // better-sqlite3 resets `synchronous` on every open, so durability is set here each time.
    prepareDatabase: (db: { pragma(source: string): unknown }) => {
      // A new file gets pages of 1 KiB (a file keeps the size it was made with): each page a turn
      // changes is written whole to the WAL, and a turn changes some 35, so a turn appends 33
      // instead of 116 KB (4 KiB pages) at 100,000 messages (`npm run bench -- --only=turn-cost`).
      // Full-text leaves are sized to fit a page (migration 1764970000000), so search and
      // recall read no overflow pages.
      db.pragma(`page_size = ${SQLITE_PAGE_SIZE}`);
      db.pragma('journal_mode = WAL');
      // FULL: a committed migration survives a power cut. Once they ran, the write queue switches
      // to NORMAL and syncs the WAL itself, off the event loop (wal-durability.ts).
      db.pragma('synchronous = FULL');
      // Short: better-sqlite3 waits synchronously, blocking every request. The write queue waits
      // for another process's lock asynchronously instead (GroupCommitQueue.begin).
      db.pragma('busy_timeout = 100');
    },
    enableWAL: true,
  };
}

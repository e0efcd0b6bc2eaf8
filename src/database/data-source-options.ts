import type { DataSourceOptions } from 'typeorm';
import type { DatabaseTarget } from './database-url.js';
import { Conversation } from '../conversations/conversation.entity.js';
import { Message } from '../conversations/message.entity.js';
import { InitialSchema1764480000000 } from './migrations/sqlite/1764480000000-initial-schema.js';
import { ReplyLifecycle1764490000000 } from './migrations/sqlite/1764490000000-reply-lifecycle.js';

export const ENTITIES = [Conversation, Message];
export const SQLITE_MIGRATIONS = [InitialSchema1764480000000, ReplyLifecycle1764490000000];

/** One definition of the data source, shared by the application and the TypeORM CLI (ormconfig.ts). */
export function dataSourceOptions(target: DatabaseTarget): DataSourceOptions {
  return {
    type: 'better-sqlite3',
    database: target.path,
    entities: ENTITIES,
    migrations: SQLITE_MIGRATIONS,
    migrationsRun: true,
    synchronize: false,
    // better-sqlite3 resets `synchronous` on every open, so durability is set here each time.
    prepareDatabase: (db: { pragma(source: string): unknown }) => {
      db.pragma('journal_mode = WAL');
      // FULL: a committed turn survives a power cut, not only a process crash.
      db.pragma('synchronous = FULL');
      db.pragma('busy_timeout = 5000');
    },
    enableWAL: true,
  };
}

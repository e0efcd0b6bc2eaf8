import { Global, Module, type DynamicModule } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { AppConfig } from '../config/app-config.js';
import type { ReadReplicaTargets } from '../config/database-url.js';
import { dataSourceOptions, type EntityList } from './data-source-options.js';
import { DatabaseService, SQLITE_BUSY_TIMEOUT_MS } from './database.service.js';
import { DatabaseWakeups } from './database-wakeups.js';
import { withMigrationLock } from './postgres-setup.js';
import { READ_REPLICA_TARGETS, ReadReplicas } from './read-replicas.js';

const NO_REPLICAS: ReadReplicaTargets = { urls: [], maxLagMs: 2_000 };

/** Opens the database (and its read replicas), runs pending migrations at start, and closes it on shutdown. */
@Global()
@Module({})
export class DatabaseModule {
  /** `settings`: the database and how long a SQLite write waits for another process's lock. */
  static forRoot(
    settings: Pick<AppConfig, 'database' | 'sqliteBusyTimeoutMs'>,
    entities: EntityList,
    replicas: ReadReplicaTargets = NO_REPLICAS,
  ): DynamicModule {
    const target = settings.database;
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRootAsync({
          useFactory: () => ({ ...dataSourceOptions(target, entities), retryAttempts: 0 }),
          // The schema must exist before migrations run into it.
          dataSourceFactory: async (options) => {
            const open = () => new DataSource(options!).initialize();
            return target.kind === 'postgres' ? withMigrationLock(target.url, target.schema, open) : open();
          },
        }),
      ],
      providers: [
        DatabaseWakeups,
        { provide: READ_REPLICA_TARGETS, useValue: replicas },
        { provide: SQLITE_BUSY_TIMEOUT_MS, useValue: settings.sqliteBusyTimeoutMs },
        ReadReplicas,
        DatabaseService,
      ],
      exports: [DatabaseService, DatabaseWakeups, ReadReplicas],
    };
  }
}

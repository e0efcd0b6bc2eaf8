import { Global, Module, type DynamicModule } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { DatabaseTarget } from '../config/database-url.js';
import { dataSourceOptions, type EntityList } from './data-source-options.js';
import { DatabaseService } from './database.service.js';
import { DatabaseWakeups } from './database-wakeups.js';
import { withMigrationLock } from './postgres-setup.js';

/** Opens the database, runs pending migrations at start, and closes it on shutdown. */
@Global()
@Module({})
export class DatabaseModule {
  static forRoot(target: DatabaseTarget, entities: EntityList): DynamicModule {
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
      providers: [DatabaseService, DatabaseWakeups],
      exports: [DatabaseService, DatabaseWakeups],
    };
  }
}

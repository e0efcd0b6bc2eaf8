import { Global, Module, type DynamicModule } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { DatabaseTarget } from './database-url.js';
import { dataSourceOptions } from './data-source-options.js';
import { DatabaseService } from './database.service.js';

/** Opens the database, runs pending migrations at start, and closes it on shutdown. */
@Global()
@Module({})
export class DatabaseModule {
  static forRoot(target: DatabaseTarget): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [TypeOrmModule.forRoot({ ...dataSourceOptions(target), retryAttempts: 0 })],
      providers: [DatabaseService],
      exports: [DatabaseService],
    };
  }
}

// Data source for the TypeORM CLI (`npm run migration:run`, `npm run migration:generate -- <path>`).
// It runs on the compiled JavaScript so entity decorators keep their metadata.
import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { loadConfig } from './src/config/app-config.js';
import { dataSourceOptions } from './src/database/data-source-options.js';
import { ENTITIES } from './src/entities.js';

export default new DataSource({ ...dataSourceOptions(loadConfig().database, ENTITIES), migrationsRun: false });

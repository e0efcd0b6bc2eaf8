import 'reflect-metadata';
import { Module, type DynamicModule } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ApiKeyError, ApiKeysService } from '../../actor-auth/api-keys.service.js';
import { ConfigError, loadConfig, type AppConfig } from '../../config/app-config.js';
import { ConfigModule } from '../../config/config.module.js';
import { DatabaseModule } from '../../database/database.module.js';
import { ENTITIES } from '../../entities.js';

const USAGE = `Usage: npm run keys -- <command>
  create --actor NAME [--label TEXT]   make a key for actor api:NAME; it is printed once
  list                                 every key: id, actor, label, dates (never the key)
  revoke ID                            the key stops working at once, on every instance`;

/** Only what managing keys needs: the configuration and the database (migrations run as at start). */
@Module({})
class KeysCliModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: KeysCliModule,
      imports: [ConfigModule.forRoot(config), DatabaseModule.forRoot(config.database, ENTITIES)],
      providers: [ApiKeysService],
    };
  }
}

async function main(args: string[]): Promise<number> {
  const [command, ...rest] = args;
  if (!command || !['create', 'list', 'revoke'].includes(command)) {
    console.error(USAGE);
    return 64; // EX_USAGE
  }
  const app = await NestFactory.createApplicationContext(KeysCliModule.forRoot(loadConfig()), { logger: ['error'] });
  try {
    const keys = app.get(ApiKeysService);
    if (command === 'create') {
      const actor = option(rest, '--actor');
      if (!actor) throw new ApiKeyError('create needs --actor NAME');
      const created = await keys.create(actor, option(rest, '--label'));
      console.log(`Created key ${created.id} for actor api:${created.name}.`);
      console.log('Store it now: it is not shown again, and only its hash is kept.');
      console.log(created.key);
      return 0;
    }
    if (command === 'list') {
      for (const k of await keys.list()) {
        const state = k.revokedAt ? `revoked ${k.revokedAt.toISOString()}` : 'active';
        const used = k.lastUsedAt ? k.lastUsedAt.toISOString() : 'never';
        console.log(`${k.id}  api:${k.name}  ${state}  created ${k.createdAt.toISOString()}  last used ${used}  ${k.label ?? ''}`.trimEnd());
      }
      return 0;
    }
    const id = rest[0];
    if (!id) throw new ApiKeyError('revoke needs the id of a key (npm run keys -- list shows them)');
    if (await keys.revoke(id)) {
      console.log(`Revoked key ${id}.`);
      return 0;
    }
    console.error(`No active key ${id}.`);
    return 1;
  } finally {
    await app.close();
  }
}

function option(args: string[], name: string): string | undefined {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof ApiKeyError || error instanceof ConfigError) {
      console.error(`Error: ${error.message}`);
      process.exit(error instanceof ConfigError ? 78 : 64);
    }
    console.error(error);
    process.exit(1);
  },
);

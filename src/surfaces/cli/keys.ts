import 'reflect-metadata';
import { Module, type DynamicModule } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ApiKeyError, ApiKeysService } from '../../actor-auth/api-keys.service.js';
import { loadConfig, type AppConfig } from '../../config/app-config.js';
import { ConfigError } from '../../config/config-error.js';
import { ConfigModule } from '../../config/config.module.js';
import { DatabaseModule } from '../../database/database.module.js';
import { ENTITIES } from '../../entities.js';
import { SINGLE_USER_ACTOR } from '../../actor-auth/actor.js';
import { AgentsModule } from '../../agents/agents.module.js';
import { ConversationsModule } from '../../conversations/conversations.module.js';
import { OAuthModule } from '../../oauth/oauth.module.js';
import { IdempotencyModule } from '../../idempotency/idempotency.module.js';
import { MemoryModule } from '../../memory/memory.module.js';
import { AccountAdoption, type AdoptedData } from '../../portability/account-adoption.service.js';
import { SharingModule } from '../../sharing/sharing.module.js';

const USAGE = `Usage: npm run keys -- <command>
  create --actor NAME [--label TEXT] [--adopt]
                 make a key for actor api:NAME; it is printed once. With --adopt, api:NAME also
                 takes over the history of single-user mode (api:owner): conversations, agents,
                 memories, share links; without it, that history stays with api:owner
  adopt --actor NAME
                 give the single-user history (api:owner) to api:NAME, which has a key already
  list           every key: id, actor, label, dates (never the key); then who holds conversations
  revoke ID      the key stops working at once, on every instance`;

/** Only what managing keys needs: the configuration and the database (migrations run as at start). */
@Module({})
class KeysCliModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: KeysCliModule,
      // Adoption moves rows of every module that keys data by actor.
      imports: [
        ConfigModule.forRoot(config),
        DatabaseModule.forRoot(config, ENTITIES),
        ConversationsModule,
        AgentsModule,
        MemoryModule,
        SharingModule,
        IdempotencyModule,
        OAuthModule,
      ],
      providers: [ApiKeysService, AccountAdoption],
    };
  }
}

type Command =
  | { readonly name: 'create'; readonly actor: string; readonly label?: string; readonly adopt: boolean }
  | { readonly name: 'adopt'; readonly actor: string }
  | { readonly name: 'list' }
  | { readonly name: 'revoke'; readonly id: string };

/** The command line read before the database is opened: a usage error is answered at once. */
function parseCommand([name, ...rest]: string[]): Command | null {
  if (name === 'create') {
    const actor = option(rest, '--actor');
    if (!actor) throw new ApiKeyError('create needs --actor NAME');
    return { name, actor, label: option(rest, '--label'), adopt: rest.includes('--adopt') };
  }
  if (name === 'adopt') {
    const actor = option(rest, '--actor');
    if (!actor) throw new ApiKeyError('adopt needs --actor NAME');
    return { name, actor };
  }
  if (name === 'list') return { name };
  if (name === 'revoke') {
    if (!rest[0]) throw new ApiKeyError('revoke needs the id of a key (npm run keys -- list shows them)');
    return { name, id: rest[0] };
  }
  return null;
}

async function main(args: string[]): Promise<number> {
  const command = parseCommand(args);
  if (!command) {
    console.error(USAGE);
    return 64; // EX_USAGE
  }
  const app = await NestFactory.createApplicationContext(KeysCliModule.forRoot(loadConfig()), { logger: ['error'] });
  try {
    const keys = app.get(ApiKeysService);
    const adoption = app.get(AccountAdoption);
    if (command.name === 'create') {
      const { actor, label } = command;
      let created;
      if (command.adopt) {
        const made = await adoption.createKeyAdopting(actor, label);
        created = made.key;
        console.log(describeAdoption(made.adopted));
      } else {
        created = await keys.create(actor, label);
        const owner = (await adoption.holders()).find((h) => h.actor === SINGLE_USER_ACTOR.id);
        if (owner) {
          console.log(
            `Note: the single-user history (${plural(owner.conversations, 'conversation')} of ${SINGLE_USER_ACTOR.id}) stays with ${SINGLE_USER_ACTOR.id}, ` +
              `which no key names; npm run keys -- adopt --actor ${actor} gives it to this key.`,
          );
        }
      }
      console.log(`Created key ${created.id} for actor api:${created.name}.`);
      console.log('Store it now: it is not shown again, and only its hash is kept.');
      console.log(created.key);
      return 0;
    }
    if (command.name === 'adopt') {
      console.log(describeAdoption(await adoption.adopt(command.actor)));
      return 0;
    }
    if (command.name === 'list') {
      for (const k of await keys.list()) {
        const state = k.revokedAt ? `revoked ${k.revokedAt.toISOString()}` : 'active';
        const used = k.lastUsedAt ? k.lastUsedAt.toISOString() : 'never';
        console.log(
          `${k.id}  api:${k.name}  ${state}  created ${k.createdAt.toISOString()}  last used ${used}  ${k.label ?? ''}`.trimEnd(),
        );
      }
      // Which actors hold conversations: history under an actor no key names (api:owner after the first key) shows here.
      const holders = await adoption.holders();
      if (holders.length) console.log('');
      for (const h of holders) console.log(`${h.actor} holds ${plural(h.conversations, 'conversation')}`);
      return 0;
    }
    if (await keys.revoke(command.id)) {
      console.log(`Revoked key ${command.id}.`);
      return 0;
    }
    console.error(`No active key ${command.id}.`);
    return 1;
  } finally {
    await app.close();
  }
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function describeAdoption(a: AdoptedData): string {
  if (a.conversations + a.agents + a.memories + a.shares + a.aliases + a.idempotencyKeys + a.mcpTokens === 0)
    return `${a.from} holds nothing: nothing moved.`;
  const memories = `${a.memories} ${a.memories === 1 ? 'memory' : 'memories'}`;
  return (
    `Moved the single-user history (${a.from}) to ${a.to}: ${plural(a.conversations, 'conversation')}, ${plural(a.messages, 'message')}, ` +
    `${plural(a.agents, 'agent')}, ${memories}, ${plural(a.shares, 'share link')}, ${plural(a.aliases, 'AI SDK chat id')}, ${plural(a.idempotencyKeys, 'idempotency key')}` +
    (a.mcpTokens > 0 ? `, ${plural(a.mcpTokens, 'MCP host token')}.` : '.')
  );
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

/**
 * The tables 1764750000000-actor-columns rebuilds, each as it ends up (`keyed`: every key with
 * the actor, as the entities declare it, from TypeORM's schema builder) and as it was before
 * (`before`, with the actor column that migration adds first), in the order they are rebuilt.
 */
export const REBUILT_TABLES = [
  {
    table: 'agents',
    keyed: `
      CREATE TABLE "%TABLE%" (
        "id" varchar(36) NOT NULL,
        "actor" varchar(200) NOT NULL,
        "name" varchar(100) NOT NULL,
        "emoji" varchar(32),
        "description" text,
        "system_prompt" text,
        "model" varchar(200),
        "temperature" real,
        "max_tokens" integer,
        "tools" text NOT NULL,
        "created_at" datetime NOT NULL,
        "updated_at" datetime NOT NULL,
        "context_token_budget" integer,
        "memory_mode" varchar(8),
        PRIMARY KEY ("id", "actor")
      )`,
    before: `
      CREATE TABLE "%TABLE%" (
        "id" varchar(36) PRIMARY KEY NOT NULL,
        "actor" varchar(200) NOT NULL,
        "name" varchar(100) NOT NULL,
        "emoji" varchar(32),
        "description" text,
        "system_prompt" text,
        "model" varchar(200),
        "temperature" real,
        "max_tokens" integer,
        "tools" text NOT NULL,
        "created_at" datetime NOT NULL,
        "updated_at" datetime NOT NULL,
        "context_token_budget" integer,
        "memory_mode" varchar(8)
      )`,
  },
  {
    table: 'conversations',
    keyed: `
      CREATE TABLE "%TABLE%" (
        "id" varchar(36) NOT NULL,
        "actor" varchar(200) NOT NULL,
        "title" varchar(200) NOT NULL,
        "last_seq" integer NOT NULL DEFAULT (0),
        "created_at" datetime NOT NULL,
        "updated_at" datetime NOT NULL,
        "agent_id" varchar(36),
        "state" text NOT NULL,
        "archived" boolean NOT NULL DEFAULT (0),
        "pinned" boolean NOT NULL DEFAULT (0),
        "memory" boolean NOT NULL DEFAULT (1),
        "metadata" text,
        PRIMARY KEY ("id", "actor")
      )`,
    before: `
      CREATE TABLE "%TABLE%" (
        "id" varchar(36) PRIMARY KEY NOT NULL,
        "actor" varchar(200) NOT NULL,
        "title" varchar(200) NOT NULL,
        "last_seq" integer NOT NULL DEFAULT (0),
        "created_at" datetime NOT NULL,
        "updated_at" datetime NOT NULL,
        "agent_id" varchar(36),
        "state" text NOT NULL,
        "archived" boolean NOT NULL DEFAULT (0),
        "pinned" boolean NOT NULL DEFAULT (0),
        "memory" boolean NOT NULL DEFAULT (1),
        "metadata" text,
        CONSTRAINT "FK_9f32ead8384a1a92e073a7c006a" FOREIGN KEY ("agent_id") REFERENCES "agents" ("id") ON DELETE SET NULL ON UPDATE NO ACTION
      )`,
  },
  {
    table: 'memories',
    keyed: `
      CREATE TABLE "%TABLE%" (
        "id" varchar(36) NOT NULL,
        "actor" varchar(200) NOT NULL,
        "agent_id" varchar(36),
        "text" text NOT NULL,
        "tokens" integer,
        "pinned" smallint NOT NULL DEFAULT (0),
        "source_conversation_id" varchar(36),
        "source_message_id" varchar(36),
        "created_at" datetime NOT NULL,
        "updated_at" datetime NOT NULL,
        PRIMARY KEY ("id", "actor")
      )`,
    before: `
      CREATE TABLE "%TABLE%" (
        "id" varchar(36) PRIMARY KEY NOT NULL,
        "actor" varchar(200) NOT NULL,
        "agent_id" varchar(36),
        "text" text NOT NULL,
        "tokens" integer,
        "pinned" smallint NOT NULL DEFAULT (0),
        "source_conversation_id" varchar(36),
        "source_message_id" varchar(36),
        "created_at" datetime NOT NULL,
        "updated_at" datetime NOT NULL
      )`,
  },
  {
    table: 'conversation_aliases',
    keyed: `
      CREATE TABLE "%TABLE%" (
        "actor" varchar(200) NOT NULL,
        "alias" varchar(128) NOT NULL,
        "conversation_id" varchar(36) NOT NULL,
        "created_at" datetime NOT NULL,
        CONSTRAINT "fk_conversation_aliases_conversation" FOREIGN KEY ("conversation_id", "actor") REFERENCES "conversations" ("id", "actor") ON DELETE CASCADE ON UPDATE NO ACTION,
        PRIMARY KEY ("actor", "alias")
      )`,
    before: `
      CREATE TABLE "%TABLE%" (
        "actor" varchar(200) NOT NULL,
        "alias" varchar(128) NOT NULL,
        "conversation_id" varchar(36) NOT NULL,
        "created_at" datetime NOT NULL,
        CONSTRAINT "FK_2898cfc28976dd969635ec9388f" FOREIGN KEY ("conversation_id") REFERENCES "conversations" ("id") ON DELETE CASCADE ON UPDATE NO ACTION,
        PRIMARY KEY ("actor", "alias")
      )`,
  },
  {
    table: 'conversation_tags',
    keyed: `
      CREATE TABLE "%TABLE%" (
        "conversation_id" varchar(36) NOT NULL,
        "tag" varchar(50) NOT NULL,
        "actor" varchar(200) NOT NULL,
        CONSTRAINT "fk_conversation_tags_conversation" FOREIGN KEY ("conversation_id", "actor") REFERENCES "conversations" ("id", "actor") ON DELETE CASCADE ON UPDATE NO ACTION,
        PRIMARY KEY ("conversation_id", "tag", "actor")
      )`,
    before: `
      CREATE TABLE "%TABLE%" (
        "conversation_id" varchar(36) NOT NULL,
        "tag" varchar(50) NOT NULL,
        "actor" varchar(200) NOT NULL DEFAULT (''),
        CONSTRAINT "FK_3c627a7d45d66262ae48c1584ae" FOREIGN KEY ("conversation_id") REFERENCES "conversations" ("id") ON DELETE CASCADE ON UPDATE NO ACTION,
        PRIMARY KEY ("conversation_id", "tag")
      )`,
  },
  {
    table: 'messages',
    keyed: `
      CREATE TABLE "%TABLE%" (
        "id" varchar(36) NOT NULL,
        "conversation_id" varchar(36) NOT NULL,
        "seq" integer NOT NULL,
        "role" varchar(16) NOT NULL,
        "content" text NOT NULL,
        "status" varchar(16) NOT NULL DEFAULT ('complete'),
        "model" varchar(200),
        "prompt_tokens" integer,
        "completion_tokens" integer,
        "created_at" datetime NOT NULL,
        "versions" text,
        "error_message" text,
        "lease_until" datetime,
        "cancel_requested_at" datetime,
        "thread" varchar(64) NOT NULL DEFAULT ('main'),
        "tool_calls" text,
        "tokens" integer,
        "error_code" varchar(32),
        "parent_id" varchar(36),
        "on_path" smallint NOT NULL DEFAULT (1),
        "pinned" smallint NOT NULL DEFAULT (0),
        "memory_ids" text,
        "function_calls" text,
        "call_id" varchar(100),
        "actor" varchar(200) NOT NULL,
        CONSTRAINT "fk_messages_conversation" FOREIGN KEY ("conversation_id", "actor") REFERENCES "conversations" ("id", "actor") ON DELETE CASCADE ON UPDATE NO ACTION,
        PRIMARY KEY ("id", "actor")
      )`,
    before: `
      CREATE TABLE "%TABLE%" (
        "id" varchar(36) PRIMARY KEY NOT NULL,
        "conversation_id" varchar(36) NOT NULL,
        "seq" integer NOT NULL,
        "role" varchar(16) NOT NULL,
        "content" text NOT NULL,
        "status" varchar(16) NOT NULL DEFAULT ('complete'),
        "model" varchar(200),
        "prompt_tokens" integer,
        "completion_tokens" integer,
        "created_at" datetime NOT NULL,
        "versions" text,
        "error_message" text,
        "lease_until" datetime,
        "cancel_requested_at" datetime,
        "thread" varchar(64) NOT NULL DEFAULT ('main'),
        "tool_calls" text,
        "tokens" integer,
        "error_code" varchar(32),
        "parent_id" varchar(36),
        "on_path" smallint NOT NULL DEFAULT (1),
        "pinned" smallint NOT NULL DEFAULT (0),
        "memory_ids" text,
        "function_calls" text,
        "call_id" varchar(100),
        "actor" varchar(200) NOT NULL DEFAULT (''),
        CONSTRAINT "FK_3bc55a7c3f9ed54b520bb5cfe23" FOREIGN KEY ("conversation_id") REFERENCES "conversations" ("id") ON DELETE CASCADE ON UPDATE NO ACTION
      )`,
  },
  {
    table: 'response_records',
    keyed: `
      CREATE TABLE "%TABLE%" (
        "message_id" varchar(36) NOT NULL,
        "request" text NOT NULL,
        "created_at" datetime NOT NULL,
        "actor" varchar(200) NOT NULL,
        CONSTRAINT "fk_response_records_message" FOREIGN KEY ("message_id", "actor") REFERENCES "messages" ("id", "actor") ON DELETE CASCADE ON UPDATE NO ACTION,
        PRIMARY KEY ("message_id", "actor")
      )`,
    before: `
      CREATE TABLE "%TABLE%" (
        "message_id" varchar(36) PRIMARY KEY NOT NULL,
        "request" text NOT NULL,
        "created_at" datetime NOT NULL,
        "actor" varchar(200) NOT NULL DEFAULT (''),
        CONSTRAINT "FK_285fbe35ecf7244b06b4d6222a1" FOREIGN KEY ("message_id") REFERENCES "messages" ("id") ON DELETE CASCADE ON UPDATE NO ACTION
      )`,
  },
  {
    table: 'summaries',
    keyed: `
      CREATE TABLE "%TABLE%" (
        "conversation_id" varchar(36) NOT NULL,
        "thread" varchar(64) NOT NULL,
        "content" text NOT NULL,
        "covers_seq" integer NOT NULL,
        "tokens" integer NOT NULL,
        "model" varchar(200) NOT NULL,
        "prompt_tokens" integer NOT NULL DEFAULT (0),
        "completion_tokens" integer NOT NULL DEFAULT (0),
        "updated_at" datetime NOT NULL,
        "actor" varchar(200) NOT NULL,
        CONSTRAINT "fk_summaries_conversation" FOREIGN KEY ("conversation_id", "actor") REFERENCES "conversations" ("id", "actor") ON DELETE CASCADE ON UPDATE NO ACTION,
        PRIMARY KEY ("conversation_id", "thread", "actor")
      )`,
    before: `
      CREATE TABLE "%TABLE%" (
        "conversation_id" varchar(36) NOT NULL,
        "thread" varchar(64) NOT NULL,
        "content" text NOT NULL,
        "covers_seq" integer NOT NULL,
        "tokens" integer NOT NULL,
        "model" varchar(200) NOT NULL,
        "prompt_tokens" integer NOT NULL DEFAULT (0),
        "completion_tokens" integer NOT NULL DEFAULT (0),
        "updated_at" datetime NOT NULL,
        "actor" varchar(200) NOT NULL DEFAULT (''),
        CONSTRAINT "FK_75b9062fb4c57afa15dc058fc3a" FOREIGN KEY ("conversation_id") REFERENCES "conversations" ("id") ON DELETE CASCADE ON UPDATE NO ACTION,
        PRIMARY KEY ("conversation_id", "thread")
      )`,
  },
  {
    table: 'threads',
    keyed: `
      CREATE TABLE "%TABLE%" (
        "conversation_id" varchar(36) NOT NULL,
        "name" varchar(64) NOT NULL,
        "system_prompt" text,
        "created_at" datetime NOT NULL,
        "updated_at" datetime NOT NULL,
        "actor" varchar(200) NOT NULL,
        CONSTRAINT "fk_threads_conversation" FOREIGN KEY ("conversation_id", "actor") REFERENCES "conversations" ("id", "actor") ON DELETE CASCADE ON UPDATE NO ACTION,
        PRIMARY KEY ("conversation_id", "name", "actor")
      )`,
    before: `
      CREATE TABLE "%TABLE%" (
        "conversation_id" varchar(36) NOT NULL,
        "name" varchar(64) NOT NULL,
        "system_prompt" text,
        "created_at" datetime NOT NULL,
        "updated_at" datetime NOT NULL,
        "actor" varchar(200) NOT NULL DEFAULT (''),
        CONSTRAINT "FK_9f17d3cfcd65548566280a18283" FOREIGN KEY ("conversation_id") REFERENCES "conversations" ("id") ON DELETE CASCADE ON UPDATE NO ACTION,
        PRIMARY KEY ("conversation_id", "name")
      )`,
  },
  {
    table: 'idempotency_keys',
    keyed: `
      CREATE TABLE "%TABLE%" (
        "actor" varchar(200) NOT NULL,
        "key" varchar(255) NOT NULL,
        "request_hash" varchar(64) NOT NULL,
        "token" varchar(36) NOT NULL,
        "state" varchar(16) NOT NULL,
        "conversation_id" varchar(36),
        "message_id" varchar(36),
        "response_status" integer,
        "response_body" text,
        "lease_until" datetime NOT NULL,
        "created_at" datetime NOT NULL,
        CONSTRAINT "fk_idempotency_keys_conversation" FOREIGN KEY ("conversation_id", "actor") REFERENCES "conversations" ("id", "actor") ON DELETE CASCADE ON UPDATE NO ACTION,
        PRIMARY KEY ("actor", "key")
      )`,
    before: `
      CREATE TABLE "%TABLE%" (
        "actor" varchar(200) NOT NULL,
        "key" varchar(255) NOT NULL,
        "request_hash" varchar(64) NOT NULL,
        "token" varchar(36) NOT NULL,
        "state" varchar(16) NOT NULL,
        "conversation_id" varchar(36),
        "message_id" varchar(36),
        "response_status" integer,
        "response_body" text,
        "lease_until" datetime NOT NULL,
        "created_at" datetime NOT NULL,
        CONSTRAINT "FK_ec2787a74e5156c8ce6cb25759c" FOREIGN KEY ("conversation_id") REFERENCES "conversations" ("id") ON DELETE CASCADE ON UPDATE NO ACTION,
        PRIMARY KEY ("actor", "key")
      )`,
  },
  {
    table: 'shares',
    keyed: `
      CREATE TABLE "%TABLE%" (
        "id" varchar(36) NOT NULL,
        "actor" varchar(200) NOT NULL,
        "conversation_id" varchar(36) NOT NULL,
        "token_hash" varchar(64) NOT NULL,
        "title" varchar(200) NOT NULL,
        "up_to_message_id" varchar(36) NOT NULL,
        "message_count" integer NOT NULL,
        "messages" text NOT NULL,
        "created_at" datetime NOT NULL,
        "expires_at" datetime,
        CONSTRAINT "fk_shares_conversation" FOREIGN KEY ("conversation_id", "actor") REFERENCES "conversations" ("id", "actor") ON DELETE CASCADE ON UPDATE NO ACTION,
        PRIMARY KEY ("id", "actor")
      )`,
    before: `
      CREATE TABLE "%TABLE%" (
        "id" varchar(36) PRIMARY KEY NOT NULL,
        "actor" varchar(200) NOT NULL,
        "conversation_id" varchar(36) NOT NULL,
        "token_hash" varchar(64) NOT NULL,
        "title" varchar(200) NOT NULL,
        "up_to_message_id" varchar(36) NOT NULL,
        "message_count" integer NOT NULL,
        "messages" text NOT NULL,
        "created_at" datetime NOT NULL,
        "expires_at" datetime,
        CONSTRAINT "FK_8adae437b3fa45e9191557e1029" FOREIGN KEY ("conversation_id") REFERENCES "conversations" ("id") ON DELETE CASCADE ON UPDATE NO ACTION
      )`,
  },
] as const;

/** The unique indexes whose columns change (the others are made again as they were). */
export const KEYED_INDEXES: Record<string, { keyed: string; before: string }> = {
  uq_messages_conversation_seq: {
    keyed: `CREATE UNIQUE INDEX "uq_messages_conversation_seq" ON "messages" ("conversation_id", "seq", "actor")`,
    before: `CREATE UNIQUE INDEX "uq_messages_conversation_seq" ON "messages" ("conversation_id", "seq")`,
  },
  uq_shares_token_hash: {
    keyed: `CREATE UNIQUE INDEX "uq_shares_token_hash" ON "shares" ("token_hash", "actor")`,
    before: `CREATE UNIQUE INDEX "uq_shares_token_hash" ON "shares" ("token_hash")`,
  },
};

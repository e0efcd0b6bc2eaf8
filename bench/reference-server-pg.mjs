// The reference point of the PostgreSQL turn benchmark: the same chat turn as
// bench/reference-server.mjs, written by hand with Express and `pg`, no framework, no ORM.
// Same promise as the service: the question is committed before the model is called, the reply
// is committed before it is returned, and each transaction holds the conversation's row lock
// (SELECT … FOR UPDATE), so two turns of one conversation never interleave. A pool of 10
// connections, like the service's. The tables of the service's first PostgreSQL migration, in a
// schema of its own (created when missing; given by ?schema= on the URL).
//
//   DATABASE_URL=postgres://…/db?schema=ref PORT=3100 HOST=127.0.0.1 node bench/reference-server-pg.mjs
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import pg from 'pg';

const require = createRequire(import.meta.url);
const express = createRequire(require.resolve('@nestjs/platform-express'))('express');

const HISTORY_WINDOW = 20;
const ACTOR = 'api:owner';

const url = new URL(process.env.DATABASE_URL ?? '');
if (!url.protocol.startsWith('postgres')) throw new Error('DATABASE_URL=postgres://…?schema=<name> is required');
const schema = url.searchParams.get('schema') ?? 'reference';
url.searchParams.delete('schema');
// UTC timestamps, as the service reads and writes them (src/database/postgres-setup.ts).
pg.defaults.parseInputDatesAsUTC = true;
const pool = new pg.Pool({ connectionString: url.toString(), max: 10, options: `-c search_path=${schema}` });

{
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
  await client.query(`SET search_path = "${schema}"`);
  // src/database/migrations/postgres/1764500000000-initial-schema.ts, conversations and messages.
  await client.query(`
    CREATE TABLE IF NOT EXISTS "conversations" ("id" character varying(36) NOT NULL, "actor" character varying(200) NOT NULL, "title" character varying(200) NOT NULL, "last_seq" integer NOT NULL DEFAULT '0', "created_at" TIMESTAMP NOT NULL, "updated_at" TIMESTAMP NOT NULL, CONSTRAINT "pk_ref_conversations" PRIMARY KEY ("id"));
    CREATE INDEX IF NOT EXISTS "idx_conversations_actor_updated" ON "conversations" ("actor", "updated_at", "id");
    CREATE TABLE IF NOT EXISTS "messages" ("id" character varying(36) NOT NULL, "conversation_id" character varying(36) NOT NULL, "seq" integer NOT NULL, "role" character varying(16) NOT NULL, "content" text NOT NULL, "status" character varying(16) NOT NULL DEFAULT 'complete', "model" character varying(200), "prompt_tokens" integer, "completion_tokens" integer, "created_at" TIMESTAMP NOT NULL, CONSTRAINT "pk_ref_messages" PRIMARY KEY ("id"), CONSTRAINT "fk_ref_messages_conversation" FOREIGN KEY ("conversation_id") REFERENCES "conversations"("id") ON DELETE CASCADE);
    CREATE UNIQUE INDEX IF NOT EXISTS "uq_messages_conversation_seq" ON "messages" ("conversation_id", "seq");
  `);
  await client.end();
}

// Constant SQL with bound parameters, each a named prepared statement (parsed once per connection).
const q = {
  owned: { name: 'owned', text: 'SELECT id, title FROM conversations WHERE id = $1 AND actor = $2 FOR UPDATE' },
  exists: { name: 'exists', text: 'SELECT 1 FROM conversations WHERE id = $1' },
  insertConversation: {
    name: 'insert_conversation',
    text: 'INSERT INTO conversations (id, actor, title, last_seq, created_at, updated_at) VALUES ($1, $2, $3, 0, $4, $4)',
  },
  bump: {
    name: 'bump',
    text: 'UPDATE conversations SET last_seq = last_seq + 1, updated_at = $1 WHERE id = $2 RETURNING last_seq',
  },
  insertMessage: {
    name: 'insert_message',
    text:
      'INSERT INTO messages (id, conversation_id, seq, role, content, status, model, prompt_tokens, completion_tokens, created_at) ' +
      "VALUES ($1, $2, $3, $4, $5, 'complete', $6, NULL, NULL, $7)",
  },
  recent: {
    name: 'recent',
    text:
      'SELECT role, content FROM messages WHERE conversation_id = $1 AND seq < $2 ' +
      "AND status = 'complete' AND content <> '' ORDER BY seq DESC LIMIT $3",
  },
};
const run = (client, statement, values) => client.query({ ...statement, values });

class HttpError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/** One transaction on one pooled connection: COMMIT has returned (durable) before it resolves. */
async function transaction(work) {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

async function ownedOrThrow(client, id) {
  const { rows } = await run(client, q.owned, [id, ACTOR]);
  if (rows[0]) return rows[0];
  throw (await run(client, q.exists, [id])).rows.length
    ? new HttpError(403, 'forbidden')
    : new HttpError(404, 'not found');
}

async function append(client, conversationId, role, content, model, now) {
  const seq = (await run(client, q.bump, [now, conversationId])).rows[0].last_seq;
  const id = randomUUID();
  await run(client, q.insertMessage, [id, conversationId, seq, role, content, model, now]);
  return { id, seq };
}

// First commit: the user's message, and the history to replay.
const beginUserTurn = (conversationId, content) =>
  transaction(async (client) => {
    const now = new Date();
    let conversation;
    if (conversationId) {
      conversation = await ownedOrThrow(client, conversationId);
    } else {
      const title = content.replace(/\s+/g, ' ').trim().slice(0, 60) || 'New conversation';
      conversation = { id: randomUUID(), title };
      await run(client, q.insertConversation, [conversation.id, ACTOR, title, now]);
    }
    const user = await append(client, conversation.id, 'user', content, null, now);
    const history = (await run(client, q.recent, [conversation.id, user.seq, HISTORY_WINDOW])).rows.reverse();
    return { conversation, user, history, created: !conversationId };
  });

// Second commit: the reply.
const appendReply = (conversationId, content) =>
  transaction(async (client) => {
    await ownedOrThrow(client, conversationId);
    return append(client, conversationId, 'assistant', content, 'echo', new Date());
  });

/** The same text as src/llm/echo-llm.ts produces for the same history. */
function echo(history, message) {
  const n = history
    .filter((m) => (m.role === 'user' || m.role === 'assistant') && m.content !== '')
    .slice(-HISTORY_WINDOW).length;
  return (
    `Echo: ${message}\n\n` +
    `(offline echo model: I received ${n} earlier message${n === 1 ? '' : 's'} of history. ` +
    'Set LLM_BASE_URL or OPENAI_API_KEY to talk to a real model.)'
  );
}

const app = express();
app.disable('x-powered-by');
app.use(express.json({ limit: 1024 * 1024 }));

app.get('/health', async (_req, res) => {
  await pool.query('SELECT 1');
  res.json({ status: 'ok', database: 'ok' });
});

app.post('/api/chat', async (req, res) => {
  const { message, conversationId } = req.body ?? {};
  if (
    typeof message !== 'string' ||
    message.trim() === '' ||
    (conversationId !== undefined && typeof conversationId !== 'string')
  ) {
    res.status(400).json({ statusCode: 400, error: 'Bad Request', message: ['message must be a non-empty string'] });
    return;
  }
  try {
    const turn = await beginUserTurn(conversationId, message);
    const reply = echo(turn.history, message);
    const stored = await appendReply(turn.conversation.id, reply);
    res.json({
      conversationId: turn.conversation.id,
      reply,
      title: turn.conversation.title,
      created: turn.created,
      userMessageId: turn.user.id,
      messageId: stored.id,
      model: 'echo',
      usage: null,
    });
  } catch (error) {
    const status = error instanceof HttpError ? error.status : 500;
    res.status(status).json({ statusCode: status, message: error.message });
  }
});

const port = Number(process.env.PORT ?? 3100);
const host = process.env.HOST ?? '127.0.0.1';
const server = app.listen(port, host, () => console.log(`reference server (PostgreSQL) on http://${host}:${port}`));

const shutdown = () =>
  server.close(async () => {
    await pool.end();
    process.exit(0);
  });
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);

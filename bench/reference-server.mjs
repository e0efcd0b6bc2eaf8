// The reference point of the HTTP benchmark: the same chat turn written by hand with Express
// and better-sqlite3, no framework, no ORM. Same schema, same pragmas (WAL, synchronous=FULL,
// foreign keys on), same two commits per turn (the user message is durable before the model
// is called, the reply is durable before it is returned), same echo reply, same JSON answer.
//
//   DATABASE_URL=sqlite:/tmp/x.sqlite PORT=3100 HOST=127.0.0.1 node bench/reference-server.mjs
//
// REFERENCE_LIGHT=1 makes it the lightest possible turn instead, the distance to the limit: one
// transaction per turn (question and reply together, after the echo) with synchronous=NORMAL,
// so no fsync on the turn at all. It no longer makes the service's promise.
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import Database from 'better-sqlite3';

// Express is installed as a dependency of @nestjs/platform-express; load that copy.
const require = createRequire(import.meta.url);
const express = createRequire(require.resolve('@nestjs/platform-express'))('express');

const HISTORY_WINDOW = 20;
const ACTOR = 'api:owner';

const url = process.env.DATABASE_URL ?? '';
if (!url.startsWith('sqlite:')) throw new Error('DATABASE_URL=sqlite:<path> is required');
const db = new Database(url.slice('sqlite:'.length));
db.pragma('journal_mode = WAL');
const LIGHT = process.env.REFERENCE_LIGHT === '1';
db.pragma(LIGHT ? 'synchronous = NORMAL' : 'synchronous = FULL');
db.pragma('busy_timeout = 5000');
db.pragma('foreign_keys = ON');

// The service's schema (src/database/migrations/sqlite/1764480000000-initial-schema.ts).
db.exec(`
  CREATE TABLE IF NOT EXISTS "conversations" ("id" varchar(36) PRIMARY KEY NOT NULL, "actor" varchar(200) NOT NULL, "title" varchar(200) NOT NULL, "last_seq" integer NOT NULL DEFAULT (0), "created_at" datetime NOT NULL, "updated_at" datetime NOT NULL);
  CREATE INDEX IF NOT EXISTS "idx_conversations_actor_updated" ON "conversations" ("actor", "updated_at", "id");
  CREATE TABLE IF NOT EXISTS "messages" ("id" varchar(36) PRIMARY KEY NOT NULL, "conversation_id" varchar(36) NOT NULL, "seq" integer NOT NULL, "role" varchar(16) NOT NULL, "content" text NOT NULL, "status" varchar(16) NOT NULL DEFAULT ('complete'), "model" varchar(200), "prompt_tokens" integer, "completion_tokens" integer, "created_at" datetime NOT NULL, CONSTRAINT "FK_3bc55a7c3f9ed54b520bb5cfe23" FOREIGN KEY ("conversation_id") REFERENCES "conversations" ("id") ON DELETE CASCADE ON UPDATE NO ACTION);
  CREATE UNIQUE INDEX IF NOT EXISTS "uq_messages_conversation_seq" ON "messages" ("conversation_id", "seq");
`);

const sqlDate = (d) => d.toISOString().replace('T', ' ').replace('Z', '');

const q = {
  owned: db.prepare('SELECT id, title FROM conversations WHERE id = ? AND actor = ?'),
  exists: db.prepare('SELECT 1 FROM conversations WHERE id = ?'),
  insertConversation: db.prepare(
    'INSERT INTO conversations (id, actor, title, last_seq, created_at, updated_at) VALUES (?, ?, ?, 0, ?, ?)',
  ),
  bump: db.prepare('UPDATE conversations SET last_seq = last_seq + 1, updated_at = ? WHERE id = ? RETURNING last_seq'),
  insertMessage: db.prepare(
    'INSERT INTO messages (id, conversation_id, seq, role, content, status, model, prompt_tokens, completion_tokens, created_at) ' +
      "VALUES (?, ?, ?, ?, ?, 'complete', ?, NULL, NULL, ?)",
  ),
  recent: db.prepare(
    'SELECT role, content FROM messages WHERE conversation_id = ? AND seq < ? ' +
      "AND status = 'complete' AND content <> '' ORDER BY seq DESC LIMIT ?",
  ),
};

class HttpError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

function ownedOrThrow(id) {
  const conversation = q.owned.get(id, ACTOR);
  if (conversation) return conversation;
  throw q.exists.get(id) ? new HttpError(403, 'forbidden') : new HttpError(404, 'not found');
}

function append(conversationId, role, content, model, now) {
  const { last_seq: seq } = q.bump.get(sqlDate(now), conversationId);
  const id = randomUUID();
  q.insertMessage.run(id, conversationId, seq, role, content, model, sqlDate(now));
  return { id, seq };
}

// First commit: the user's message, and the history to replay.
function userTurn(conversationId, content) {
  const now = new Date();
  let conversation;
  if (conversationId) {
    conversation = ownedOrThrow(conversationId);
  } else {
    const title = content.replace(/\s+/g, ' ').trim().slice(0, 60) || 'New conversation';
    conversation = { id: randomUUID(), title };
    q.insertConversation.run(conversation.id, ACTOR, title, sqlDate(now), sqlDate(now));
  }
  const user = append(conversation.id, 'user', content, null, now);
  const history = q.recent.all(conversation.id, user.seq, HISTORY_WINDOW).reverse();
  return { conversation, user, history, created: !conversationId };
}
const beginUserTurn = db.transaction(userTurn);

// Second commit: the reply.
function reply(conversationId, content) {
  ownedOrThrow(conversationId);
  return append(conversationId, 'assistant', content, 'echo', new Date());
}
const appendReply = db.transaction(reply);

// REFERENCE_LIGHT: both in one transaction.
const wholeTurn = db.transaction((conversationId, message) => {
  const turn = userTurn(conversationId, message);
  const text = echo(turn.history, message);
  return { turn, reply: text, stored: reply(turn.conversation.id, text) };
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

app.get('/health', (_req, res) => {
  db.prepare('SELECT 1').get();
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
    let turn, reply, stored;
    if (LIGHT) {
      ({ turn, reply, stored } = wholeTurn(conversationId, message));
    } else {
      turn = beginUserTurn(conversationId, message);
      reply = await Promise.resolve(echo(turn.history, message)); // the model call is async in the service too
      stored = appendReply(turn.conversation.id, reply);
    }
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
const server = app.listen(port, host, () => console.log(`reference server on http://${host}:${port}`));

const shutdown = () =>
  server.close(() => {
    db.close();
    process.exit(0);
  });
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);

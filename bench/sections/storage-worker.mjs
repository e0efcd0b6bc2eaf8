// Sections 2 and 3, run in a child process of their own (a fresh heap, and a clean
// /proc/self/io for the bytes-written figure):
//
//   node bench/sections/storage-worker.mjs turn-cost '<options JSON>' <result file>
//   node bench/sections/storage-worker.mjs reads    '<options JSON>' <result file>
//
// Every measured call goes through the compiled service classes in dist/ (ChatService,
// ConversationsService, ConversationsRepository) on a real SQLite file opened the way the
// service opens it; raw SQL is used only to seed and to read file statistics.
import 'reflect-metadata';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { ROOT, fileSize, spread, summarize, writtenBytes } from '../lib/common.mjs';
import { SEED_USER, storageBytes, templateSeeder } from '../lib/seed.mjs';

const dist = (p) => import(pathToFileURL(join(ROOT, 'dist', 'src', p)).href);
const { NestFactory } = await import('@nestjs/core');
const { loadConfig } = await dist('config/app-config.js');
const { ConfigModule } = await dist('config/config.module.js');
const { DatabaseModule } = await dist('database/database.module.js');
const { ENTITIES } = await dist('entities.js');
const { DatabaseService } = await dist('database/database.service.js');
const { ChatModule } = await dist('chat/chat.module.js');
const { ChatService } = await dist('chat/chat.service.js');
const { ConversationsModule } = await dist('conversations/conversations.module.js');
const { ConversationsService } = await dist('conversations/conversations.service.js');
const { ConversationsRepository } = await dist('conversations/conversations.repository.js');
// Older builds index every message in its own commit: nothing waits for the index there.
const { MessageIndexBacklog } = await dist('conversations/message-index-backlog.js').catch(() => ({}));
// Newer builds read the history in MessagesRepository, keyed by conversation and actor.
const { MessagesRepository } = await dist('conversations/messages.repository.js').catch(() => ({}));
const { encodeCursor } = await dist('conversations/conversation-cursor.js');
const { SINGLE_USER_ACTOR } = await dist('actor-auth/actor.js');

const OWNER = SINGLE_USER_ACTOR; // api:owner, the actor of single-user mode

// Counts SQLite statement preparations (TypeORM's connection uses this same class).
let preparedStatements = 0;
const prepare = Database.prototype.prepare;
Database.prototype.prepare = function countedPrepare(...args) {
  preparedStatements++;
  return prepare.apply(this, args);
};

/** The service's domain modules on `dbPath`, configured exactly as main.ts would (echo model). */
async function openContext(dbPath) {
  // Quotas off: the bench measures conversations as long as 100,000 messages and beyond.
  const config = loadConfig({
    DATABASE_URL: `sqlite:${dbPath}`,
    MAX_MESSAGES_PER_CONVERSATION: '0',
    MAX_CONVERSATIONS_PER_ACTOR: '0',
  });
  class BenchModule {}
  const app = await NestFactory.createApplicationContext(
    {
      module: BenchModule,
      imports: [
        ConfigModule.forRoot(config),
        DatabaseModule.forRoot(config, ENTITIES),
        ChatModule,
        ConversationsModule,
      ],
    },
    { logger: false },
  );
  await app.init();
  // A seeded file's messages wait for the full-text index: indexed now, as a running service
  // would have, so that no measure pays for the seed's indexing.
  if (MessageIndexBacklog) await app.get(MessageIndexBacklog, { strict: false }).catchUp();
  return {
    app,
    chat: app.get(ChatService),
    conversations: app.get(ConversationsService, { strict: false }),
    repo: app.get(ConversationsRepository, { strict: false }),
    messageRows: MessagesRepository ? app.get(MessagesRepository, { strict: false }) : null,
    db: app.get(DatabaseService, { strict: false }),
    /** Indexes the messages waiting for the full-text index, so that a measure counts their pages. */
    indexBacklog: () => (MessageIndexBacklog ? app.get(MessageIndexBacklog, { strict: false }).catchUp() : undefined),
  };
}

/**
 * Creates the schema through the service's own migrations and one template conversation
 * through a real chat turn, then hands the file to `seed(seeder)` to clone it (lib/seed.mjs).
 */
async function prepareDatabase(dbPath, seed) {
  const ctx = await openContext(dbPath);
  const { conversationId: templateId } = await ctx.chat.run(
    { id: 'api:bench-template' },
    { ask: { message: SEED_USER } },
  );
  await ctx.app.close();
  const raw = new Database(dbPath);
  raw.pragma('journal_mode = WAL');
  try {
    const seeder = templateSeeder(raw, templateId);
    const out = seed(seeder, raw);
    seeder.done();
    raw.pragma('wal_checkpoint(TRUNCATE)');
    return out;
  } finally {
    raw.close();
  }
}

/**
 * The history read of a turn, as each build spells it: MessagesRepository.recentHistory(em,
 * {id, actor}, thread, beforeSeq, limit); before, ConversationsRepository's, with or without the thread.
 */
function recentHistory(ctx, em, conversationId, beforeSeq, limit) {
  if (ctx.messageRows)
    return ctx.messageRows.recentHistory(em, { id: conversationId, actor: OWNER.id }, 'main', beforeSeq, limit);
  return ctx.repo.recentHistory.length >= 5
    ? ctx.repo.recentHistory(em, conversationId, 'main', beforeSeq, limit)
    : ctx.repo.recentHistory(em, conversationId, beforeSeq, limit);
}

const ms = (t0) => Number(process.hrtime.bigint() - t0) / 1e6;

// ---------------------------------------------------------------------------------------------
// Section 2: the storage work of one turn against the length of the conversation.

async function turnCost({ dir, lengths, repetitions, turns, warmup, payloadTurns, walBatches, walBatchTurns, fillTo }) {
  // One database per length, all open at once: the repetitions go round the lengths in turn
  // (10, 1k, 10k, 100k, then 1k, 10k, 100k, 10, ...) so that drift in the machine's speed
  // falls on every length alike.
  const cases = [];
  try {
    for (const spec of lengths) {
      // A length, or { length, branchEvery }: a conversation with branch points off its active path.
      const { length, branchEvery = 0 } = typeof spec === 'number' ? { length: spec } : spec;
      const dbPath = join(dir, `turn-cost-${length}${branchEvery ? `-b${branchEvery}` : ''}.sqlite`);
      // Filler under another actor makes every database about the same size (`fillTo`
      // messages), so the figure isolates the conversation's length from the file's size.
      const filler = Math.max(0, fillTo - length);
      const t0 = process.hrtime.bigint();
      const [id] = await prepareDatabase(dbPath, (seeder) => {
        if (filler > 0) seeder.seed({ actor: 'api:filler', conversations: Math.ceil(filler / 100), length: 100 });
        return seeder.seed({ actor: OWNER.id, conversations: 1, length, branchEvery });
      });
      const seedMs = ms(t0);
      const ctx = await openContext(dbPath);
      const raw = new Database(dbPath); // a second connection: file statistics, checkpoints, trimming
      // After each timed turn the conversation's two oldest messages are deleted (untimed), so
      // every turn meets exactly `length` stored messages while `seq` keeps growing as in real
      // use (TypeORM writes the seq into the SQL text, so its statement cache then sees what it
      // sees in production: a new text on every turn).
      const trimOldest = raw.prepare('DELETE FROM messages WHERE conversation_id = ? AND seq < ?');
      const lastSeqOf = raw.prepare('SELECT last_seq FROM conversations WHERE id = ?').pluck();
      let n = 0;
      const branchPoints = branchEvery
        ? raw.prepare('SELECT count(*) FROM messages WHERE conversation_id = ? AND on_path = 0').pluck().get(id)
        : 0;
      cases.push({
        length,
        branchPoints,
        dbPath,
        filler,
        seedMs,
        ctx,
        raw,
        reps: [],
        prepares: 0,
        turn: () => ctx.chat.run(OWNER, { ask: { message: `${SEED_USER} (${n++})`, conversationId: id } }),
        trim: () => trimOldest.run(id, lastSeqOf.get(id) - length + 1),
        stored: () => raw.prepare('SELECT count(*) FROM messages WHERE conversation_id = ?').pluck().get(id),
      });
    }

    for (const c of cases) {
      for (let i = 0; i < warmup; i++) {
        await c.turn();
        c.trim();
      }
    }

    for (let r = 0; r < repetitions; r++) {
      const order = cases.map((_, i) => cases[(i + r) % cases.length]);
      for (const c of order) {
        const samples = [];
        for (let i = 0; i < turns; i++) {
          const p0 = preparedStatements;
          const t = process.hrtime.bigint();
          const result = await c.turn();
          samples.push(ms(t));
          c.prepares += preparedStatements - p0;
          if (!result.reply.startsWith('Echo:')) throw new Error('unexpected reply');
          c.trim();
        }
        c.reps.push(summarize(samples));
      }
    }

    const results = [];
    for (const c of cases) {
      const { raw, turn, dbPath } = c;
      const storedDuringRun = c.stored();

      // Bytes 1: growth of the database's content over `payloadTurns` turns (dbstat and page
      // counts see the WAL's committed pages too, so no checkpoint is needed to read them).
      // Bytes 2: everything this process passed to write() meanwhile: WAL frames plus the
      // automatic checkpoints that copy them back into the main file.
      // The full-text index takes messages in batches: each measure starts with none waiting
      // and ends with its own turns' messages indexed, so their index pages are counted.
      await c.ctx.indexBacklog();
      const before = storageBytes(raw);
      const w0 = writtenBytes();
      for (let i = 0; i < payloadTurns; i++) await turn();
      await c.ctx.indexBacklog();
      const w1 = writtenBytes();
      const after = storageBytes(raw);

      // Bytes 3: WAL bytes appended per turn. After a TRUNCATE checkpoint the WAL is empty; a
      // small batch stays far below the 1000-page auto-checkpoint, so its size is all frames.
      const walPerTurn = [];
      for (let b = 0; b < walBatches; b++) {
        await c.ctx.indexBacklog();
        raw.pragma('wal_checkpoint(TRUNCATE)');
        if (fileSize(`${dbPath}-wal`) !== 0) throw new Error('WAL was not truncated');
        for (let i = 0; i < walBatchTurns; i++) await turn();
        await c.ctx.indexBacklog();
        walPerTurn.push(fileSize(`${dbPath}-wal`) / walBatchTurns);
      }
      // What the WAL's pages are for: the last batch's frames, each named by the table or index
      // owning its page (dbstat), per turn.
      const walFramesByTree = walFramesPerTree(raw, `${dbPath}-wal`, walBatchTurns);
      // The same with each turn's messages indexed before the next turn: a turn every second or
      // slower, when the backlog never holds more than one turn's messages.
      await c.ctx.indexBacklog();
      raw.pragma('wal_checkpoint(TRUNCATE)');
      for (let i = 0; i < walBatchTurns; i++) {
        await turn();
        await c.ctx.indexBacklog();
      }
      const walPerLoneTurn = fileSize(`${dbPath}-wal`) / walBatchTurns;

      const x = {
        length: c.length,
        branchPoints: c.branchPoints,
        fillerMessages: c.filler,
        seedMs: c.seedMs,
        storedMessagesDuringRun: storedDuringRun,
        statementsPreparedPerTurn: c.prepares / (repetitions * turns),
        p50Ms: spread(c.reps.map((y) => y.p50)),
        p99Ms: spread(c.reps.map((y) => y.p99)),
        meanMs: spread(c.reps.map((y) => y.mean)),
        turnsPerS: spread(c.reps.map((y) => 1000 / y.mean)),
        payloadBytesPerTurn: (after.payload - before.payload) / payloadTurns,
        usedBytesPerTurn: (after.used - before.used) / payloadTurns,
        allocatedBytesPerTurn: (after.allocated - before.allocated) / payloadTurns,
        writeSyscallBytesPerTurn: w0 === undefined ? null : (w1 - w0) / payloadTurns,
        walBytesPerTurn: spread(walPerTurn),
        walBytesPerLoneTurn: walPerLoneTurn,
        walFramesByTree,
        pageSize: after.pageSize,
        fileBytes: fileSize(dbPath),
      };
      results.push(x);
      process.stdout.write(
        `  length ${x.length}${x.branchPoints ? ` (${x.branchPoints} branch points)` : ''}: p50 ${x.p50Ms.median.toFixed(3)} ms, p99 ${x.p99Ms.median.toFixed(3)} ms, ` +
          `${x.statementsPreparedPerTurn.toFixed(2)} statements prepared, payload ${x.payloadBytesPerTurn.toFixed(0)} B/turn, ` +
          `WAL ${x.walBytesPerTurn.median.toFixed(0)} B/turn (${x.walBytesPerLoneTurn.toFixed(0)} indexed turn by turn)\n` +
          `    WAL frames per turn by table or index: ${Object.entries(walFramesByTree)
            .map(([name, n]) => `${name} ${n}`)
            .join(', ')}\n`,
      );
    }
    return { lengths: results };
  } finally {
    for (const c of cases) {
      c.raw.close();
      await c.ctx.app.close();
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Section 3: listing and reading at scale.

async function reads({ dir, conversations, messages, repetitions, calls }) {
  const dbPath = join(dir, 'reads.sqlite');
  const t0 = process.hrtime.bigint();
  const { bigId, deepCursor } = await prepareDatabase(dbPath, (seeder, raw) => {
    // One conversation with `messages` messages, the most recently updated one...
    const [big] = seeder.seed({ actor: OWNER.id, conversations: 1, length: messages, nowMs: Date.now() });
    // ...and `conversations - 1` more without messages (listing reads the conversations table only).
    seeder.seed({ actor: OWNER.id, conversations: conversations - 1, length: 0, nowMs: Date.now() - 120_000 });
    const middle = raw
      .prepare(
        'SELECT id, updated_at AS at FROM conversations WHERE actor = ? ORDER BY updated_at DESC, id DESC LIMIT 1 OFFSET ?',
      )
      .get(OWNER.id, Math.floor(conversations / 2));
    return {
      bigId: big,
      deepCursor: encodeCursor({ updatedAt: new Date(`${middle.at.replace(' ', 'T')}Z`), id: middle.id }),
    };
  });
  const seedMs = ms(t0);

  const ctx = await openContext(dbPath);
  try {
    const time = async (label, fn) => {
      for (let i = 0; i < Math.min(50, calls); i++) await fn(); // warm-up
      const reps = [];
      for (let r = 0; r < repetitions; r++) {
        const samples = [];
        for (let i = 0; i < calls; i++) {
          const t = process.hrtime.bigint();
          await fn();
          samples.push(ms(t));
        }
        reps.push(summarize(samples));
      }
      const out = { p50Ms: spread(reps.map((x) => x.p50)), p99Ms: spread(reps.map((x) => x.p99)) };
      process.stdout.write(
        `  ${label}: p50 ${out.p50Ms.median.toFixed(3)} ms, p99 ${out.p99Ms.median.toFixed(3)} ms\n`,
      );
      return out;
    };
    const expectLength = (n) => (rows) => {
      if (rows.length !== n) throw new Error(`expected ${n} rows, got ${rows.length}`);
    };
    const { lastSeq } = (await ctx.conversations.getWithMessages(OWNER, bigId)).conversation;

    const firstPage = await time('list first page (20) of 100k', async () => {
      const page = await ctx.conversations.list(OWNER, 20);
      expectLength(20)(page.items);
    });
    const deepPage = await time('list a page at row 50,000', async () => {
      const page = await ctx.conversations.list(OWNER, 20, deepCursor);
      expectLength(20)(page.items);
    });
    const last20 = await time('recentHistory last 20 of 100k', async () => {
      expectLength(20)(await ctx.db.read((em) => recentHistory(ctx, em, bigId, lastSeq + 1, 20)));
    });
    const last50 = await time('recentHistory last 50 of 100k', async () => {
      expectLength(50)(await ctx.db.read((em) => recentHistory(ctx, em, bigId, lastSeq + 1, 50)));
    });

    // What GET /api/conversations/:id costs on the long conversation (its newest 100 messages, threads, summary, token totals).
    const opened = await time(`getWithMessages (newest 100) of ${messages}`, async () => {
      expectLength(100)((await ctx.conversations.getWithMessages(OWNER, bigId)).messages);
    });
    return {
      conversations,
      messages,
      seedMs,
      dbPath,
      bigConversationId: bigId,
      listFirstPage: firstPage,
      listDeepPage: deepPage,
      recentHistory20: last20,
      recentHistory50: last50,
      getWithMessages: opened,
    };
  } finally {
    await ctx.app.close();
  }
}

const [section, optionsJson, outFile] = process.argv.slice(2);
const options = JSON.parse(optionsJson);
const result = section === 'turn-cost' ? await turnCost(options) : section === 'reads' ? await reads(options) : null;
if (!result) throw new Error(`unknown section ${section}`);
writeFileSync(outFile, JSON.stringify(result));

/** The WAL's frames per turn by the table or index owning each page, most first (pages no tree owns: free-list and header pages). */
function walFramesPerTree(raw, walPath, turns) {
  const wal = readFileSync(walPath);
  if (wal.length < 32) return {};
  const frame = 24 + wal.readUInt32BE(8);
  const owner = new Map(raw.prepare('SELECT pageno, name FROM dbstat').raw().all());
  const counts = new Map();
  for (let offset = 32; offset + frame <= wal.length; offset += frame) {
    const name = owner.get(wal.readUInt32BE(offset)) ?? '(other pages)';
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return Object.fromEntries(
    [...counts].sort((a, b) => b[1] - a[1]).map(([name, n]) => [name, Math.round((10 * n) / turns) / 10]),
  );
}

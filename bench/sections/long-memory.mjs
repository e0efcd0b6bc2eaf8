// Long-term memory (docs/memory.md), opt-in: `npm run bench -- --only=long-memory [--quick]`.
//
// 1. Added turn time: ChatService.run (echo model, real SQLite file) for an actor holding
//    100,000 memories, with MEMORY_MODE=on against MEMORY_MODE=off on the same file. The
//    difference of the p50s is what reading memories adds to a turn (target: <= 2 ms).
// 2. Retrieval check: 200 generated facts, each remembered in one of 20 older conversations,
//    then 200 later questions, each sharing content words with its fact; the share of questions
//    whose fact was in the context the model was sent, at the default MEMORY_TOKEN_BUDGET.
//    It measures retrieval, not the quality of any answer.
//
// Every measured call goes through the compiled service (dist/); raw SQL only seeds.
import 'reflect-metadata';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { ROOT, round, summarize, tempDir } from '../lib/common.mjs';

const dist = (p) => import(pathToFileURL(join(ROOT, 'dist', 'src', p)).href);
const { NestFactory } = await import('@nestjs/core');
const { loadConfig } = await dist('config/app-config.js');
const { ConfigModule } = await dist('config/config.module.js');
const { DatabaseModule } = await dist('database/database.module.js');
const { ENTITIES } = await dist('entities.js');
const { ChatModule } = await dist('chat/chat.module.js');
const { ChatService } = await dist('chat/chat.service.js');
const { MemoryModule } = await dist('memory/memory.module.js');
const { MemoryService } = await dist('memory/memory.service.js');

/** A small deterministic PRNG (mulberry32): the same data on every run. */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function open(dbPath, env) {
  const config = loadConfig({
    DATABASE_URL: `sqlite:${dbPath}`,
    MAX_MESSAGES_PER_CONVERSATION: '0',
    MAX_CONVERSATIONS_PER_ACTOR: '0',
    ...env,
  });
  class BenchModule {}
  const app = await NestFactory.createApplicationContext(
    {
      module: BenchModule,
      imports: [ConfigModule.forRoot(config), DatabaseModule.forRoot(config, ENTITIES), ChatModule, MemoryModule],
    },
    { logger: false },
  );
  await app.init();
  return { app, chat: app.get(ChatService), memories: app.get(MemoryService, { strict: false }) };
}

/** Pseudo-words from syllables: a vocabulary of `size` distinct words, as varied as personal facts are. */
function vocabulary(size, next) {
  const syllables = [
    'ka',
    'lo',
    'mi',
    'ren',
    'tas',
    'vo',
    'ber',
    'dun',
    'fi',
    'gal',
    'hu',
    'jor',
    'ne',
    'pra',
    'qui',
    'sol',
    'tre',
    'ul',
    'wen',
    'zor',
  ];
  const words = new Set();
  while (words.size < size)
    words.add(
      Array.from({ length: 3 + Math.floor(next() * 2) }, () => syllables[Math.floor(next() * syllables.length)]).join(
        '',
      ),
    );
  return [...words];
}

/** 100,000 memories of one actor, inserted in batches straight into the table (the FTS triggers index them). */
function seedMemories(dbPath, actor, count, next) {
  const words = vocabulary(20_000, next);
  const db = new Database(dbPath);
  // Counted as the service counts a memory it stores (the echo model's encoding, o200k_base).
  const insert = db.prepare(
    'INSERT INTO memories (id, actor, agent_id, text, tokens, pinned, created_at, updated_at) VALUES (?, ?, NULL, ?, ?, ?, ?, ?)',
  );
  const at = new Date('2026-01-01T00:00:00Z').getTime();
  db.transaction(() => {
    for (let i = 0; i < count; i++) {
      const text = `Fact ${i}: ${Array.from({ length: 8 }, () => words[Math.floor(next() * words.length)]).join(' ')}`;
      const stamp = new Date(at + i * 1000).toISOString().replace('T', ' ').replace('Z', '');
      // A handful pinned, as a user would pin a few.
      insert.run(
        `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
        actor,
        text,
        countTokens(text),
        i % 20_000 === 0 ? 1 : 0,
        stamp,
        stamp,
      );
    }
  })();
  db.close();
  return words;
}

async function addedTurnTime({ dir, memories, turns, warmup }, log) {
  const dbPath = join(dir, 'long-memory.sqlite');
  const actor = { id: 'api:bench-memory' };
  const next = random(21);
  // Migrations first (an app start), then the seed.
  await (await open(dbPath, {})).app.close();
  const words = seedMemories(dbPath, actor.id, memories, next);
  const question = () =>
    `Tell me about ${Array.from({ length: 3 }, () => words[Math.floor(next() * words.length)]).join(' and ')} please`;
  const measure = async (mode) => {
    const ctx = await open(dbPath, { MEMORY_MODE: mode });
    const { conversationId } = await ctx.chat.run(actor, { ask: { message: 'start' } });
    const samples = [];
    let given = 0;
    for (let i = 0; i < warmup + turns; i++) {
      const start = performance.now();
      await ctx.chat.run(
        actor,
        { ask: { message: question(), conversationId } },
        { started: (turn) => void (given += turn.context.memoryIds.length) },
      );
      if (i >= warmup) samples.push(performance.now() - start);
    }
    await ctx.app.close();
    return { ...summarize(samples), memoriesPerTurn: round(given / (warmup + turns), 1) };
  };
  // Interleaved rounds, so that a noisy neighbour weighs on both modes alike.
  const off = [];
  const on = [];
  for (let round_ = 0; round_ < 2; round_++) {
    off.push(await measure('off'));
    on.push(await measure('on'));
  }
  const p50 = (runs) => Math.min(...runs.map((r) => r.p50));
  const result = {
    memories,
    turns,
    offP50Ms: round(p50(off), 3),
    onP50Ms: round(p50(on), 3),
    addedP50Ms: round(p50(on) - p50(off), 3),
    memoriesPerTurn: on[0].memoriesPerTurn,
    runs: { off, on },
  };
  log(
    `  ${memories} memories: turn p50 ${result.offP50Ms} ms (MEMORY_MODE=off) vs ${result.onP50Ms} ms (on): +${result.addedP50Ms} ms, ${result.memoriesPerTurn} memories given per turn`,
  );
  return result;
}

const PEOPLE = ['Clara', 'Yusuf', 'Ingrid', 'Tomasz', 'Aiko', 'Mateo', 'Priya', 'Lars', 'Amara', 'Dmitri'];
const FACTS = [
  (v) => [`My dog is called ${v}`, `What tricks could I teach ${v} the dog?`],
  (v) => [`My sister ${v} lives in Porto`, `What should I bring my sister ${v} when I visit?`],
  (v) => [`I am allergic to ${v.toLowerCase()}berries`, `Can I eat a tart with ${v.toLowerCase()}berries in it?`],
  (v) => [`I play the cello in the ${v} orchestra`, `When does the ${v} orchestra rehearse next?`],
  (v) => [`My car is a blue ${v} hatchback`, `How often should the ${v} hatchback be serviced?`],
  (v) => [`I work as a nurse at ${v} hospital`, `Night shifts at ${v} hospital are tiring, any advice?`],
  (v) => [`My daughter ${v} is learning to swim`, `How can I help ${v} swim better?`],
  (v) => [`I am training for the ${v} marathon in April`, `What should I eat the week before the ${v} marathon?`],
  (v) => [`My favourite author is ${v} Okafor`, `Which book by ${v} Okafor should I reread?`],
  (v) => [
    `I grow tomatoes on a balcony facing ${v} street`,
    `Why are the tomatoes on my ${v} street balcony splitting?`,
  ],
];

async function retrievalCheck({ dir }, log) {
  const dbPath = join(dir, 'retrieval.sqlite');
  const ctx = await open(dbPath, {});
  const actor = { id: 'api:bench-recall' };
  const next = random(7);
  // 200 facts: 10 kinds x 20 values, each remembered in one of 20 older conversations.
  const pairs = [];
  for (let k = 0; k < FACTS.length; k++) {
    for (let j = 0; j < 20; j++) {
      const value = `${PEOPLE[j % PEOPLE.length]}${j >= PEOPLE.length ? 'son' : ''}`;
      pairs.push(FACTS[k](value));
    }
  }
  const old = [];
  for (let c = 0; c < 20; c++)
    old.push((await ctx.chat.run(actor, { ask: { message: `Old conversation ${c}` } })).conversationId);
  for (const [i, [fact]] of pairs.entries())
    await ctx.memories.create(actor, { text: fact, sourceConversationId: old[i % old.length] });
  let found = 0;
  let given = 0;
  const order = pairs.map((_, i) => i).sort(() => next() - 0.5);
  for (const i of order) {
    const [fact, question] = pairs[i];
    let sent = [];
    await ctx.chat.run(
      actor,
      { ask: { message: question } },
      {
        started: (turn) => {
          sent = turn.context.messages;
          given += turn.context.memoryIds.length;
        },
      },
    );
    if (sent.some((m) => m.role === 'system' && m.content.split('\n').includes(`- ${fact}`))) found++;
  }
  await ctx.app.close();
  const result = {
    facts: pairs.length,
    questions: pairs.length,
    found,
    share: round(found / pairs.length, 3),
    memoriesPerTurn: round(given / pairs.length, 1),
    budget: loadConfig({}).memoryTokenBudget,
  };
  log(
    `  retrieval: ${found} of ${pairs.length} questions had their fact in the context (${round(100 * result.share, 1)} %), ${result.memoriesPerTurn} memories per turn, MEMORY_TOKEN_BUDGET=${result.budget}; this measures retrieval, not answers`,
  );
  return result;
}

export async function longMemory({ quick }, log) {
  const tmp = tempDir('long-memory');
  try {
    const turnTime = await addedTurnTime(
      { dir: tmp.dir, memories: 100_000, turns: quick ? 200 : 1000, warmup: quick ? 50 : 200 },
      log,
    );
    const retrieval = await retrievalCheck({ dir: tmp.dir }, log);
    return { turnTime, retrieval };
  } finally {
    tmp.remove();
  }
}

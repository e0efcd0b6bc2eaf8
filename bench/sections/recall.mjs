// Recall over a real long-term-memory benchmark, opt-in: `npm run bench -- --only=recall [--quick]`
// (or `node bench/sections/recall.mjs [--quick]`).
//
// LoCoMo (Maharana et al., ACL 2024) is read from ../shared/data/locomo beside the repository and
// never copied into it (its licence is non-commercial); without it the section says so and skips.
// Each of its ten samples (two people's history) becomes one actor (an API key each), imported
// through POST /api/imports as an account export: one conversation per session, in order, dated,
// the first speaker's turns as `user` and the second's as `assistant`, a shared photo's caption in
// its turn's text. Then every scored question is put, as it is, to each way the service has of
// finding what was said before, and the evidence turns (known by dia_id, mapped to the stored
// message ids) are looked for in what came back:
//   GET /api/search (message search; "not available" while the route answers 404),
//   GET /api/conversations?q= (one hit per conversation, its best message),
//   MCP search_conversations (and search_messages when tools/list has it), official SDK client,
//   a new conversation's first turn: what the model (a recording fake) was sent,
// beside baselines computed here over the same stored texts: plain BM25, BM25 with Porter
// stemming, and BM25 with English stop words left out and Porter stemming. Samples 26, 30, 41, 42, 43 are the tuning set, 44, 47,
// 48, 49, 50 the held-out one; both are reported apart and together.
import { existsSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { stemmer } from 'stemmer';
import { DIST_MAIN, HOST, ROOT, round, startServer, summarize, tempDir, withServerLog } from '../lib/common.mjs';
import { startFakeOpenAi } from '../lib/fake-openai.mjs';

export const LOCOMO_DIR = resolve(ROOT, '..', 'shared', 'data', 'locomo');
const SAMPLE_DIR = join(LOCOMO_DIR, 'data', 'multimodal_dialog', 'locomo10_v2');
export const TUNING = ['26', '30', '41', '42', '43'];
export const HELD_OUT = ['44', '47', '48', '49', '50'];
const CATEGORIES = { 1: 'multi-hop', 2: 'temporal', 3: 'open-domain', 4: 'single-hop', 5: 'adversarial' };
const KS = [1, 5, 10, 50];
/** Results asked of every method (the most MCP's search tools answer). */
const LIMIT = 50;
/** --quick scores every QUICK_STRIDE-th question of each sample. */
const QUICK_STRIDE = 5;

export const METHODS = [
  { id: 'messageSearch', label: 'GET /api/search (messages)' },
  { id: 'conversationSearch', label: 'GET /api/conversations?q=' },
  { id: 'mcpConversations', label: 'MCP search_conversations' },
  { id: 'mcpMessages', label: 'MCP search_messages' },
  { id: 'firstTurn', label: "new conversation's first turn" },
  { id: 'bm25', label: 'BM25 (plain)' },
  { id: 'bm25Porter', label: 'BM25 + Porter' },
  { id: 'bm25Stemmed', label: 'BM25 + stop words + Porter' },
];

// ---------------------------------------------------------------------------------------------
// The data

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

/** LoCoMo's session dates, e.g. `1:56 pm on 8 May, 2023`, as UTC instants. */
export function parseSessionDate(text) {
  const m = /^\s*(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([a-z]+),?\s+(\d{4})\s*$/i.exec(text);
  const month = m ? MONTHS.indexOf(m[5].toLowerCase()) : -1;
  if (!m || month < 0) throw new Error(`LoCoMo: unreadable session date "${text}"`);
  const hour = (Number(m[1]) % 12) + (m[3].toLowerCase() === 'pm' ? 12 : 0);
  return new Date(Date.UTC(Number(m[6]), month, Number(m[4]), hour, Number(m[2])));
}

/** A turn as stored: its text, and a shared photo's caption, which evidence may rely on. */
export function turnText(turn) {
  const caption = typeof turn.blip_caption === 'string' ? turn.blip_caption.trim() : '';
  return caption ? `${turn.text} [shares ${caption}]` : turn.text;
}

/**
 * A question's evidence as dia_ids of real turns (SOURCE.md, "Quirks"): lists written in one
 * string are split, `D:11:26` is `D11:26`, `D30:05` is `D30:5`; ids naming no turn are dropped.
 */
export function normalizeEvidence(evidence, turnIds) {
  const ids = new Set();
  for (const entry of evidence ?? []) {
    for (const piece of String(entry).split(/[;,\s]+/)) {
      const m = /^D:?(\d+):(\d+)$/.exec(piece.trim());
      if (!m) continue;
      const id = `D${Number(m[1])}:${Number(m[2])}`;
      if (turnIds.has(id)) ids.add(id);
    }
  }
  return [...ids];
}

/** One sample file: its sessions in order (those with turns), and the questions that can be scored. */
export function readSample(id) {
  const raw = JSON.parse(readFileSync(join(SAMPLE_DIR, `${id}.json`), 'utf8'));
  const sessions = Object.keys(raw)
    .map((k) => /^session_(\d+)$/.exec(k))
    .filter((m) => m && Array.isArray(raw[m[0]]) && raw[m[0]].length > 0)
    .map((m) => Number(m[1]))
    .sort((a, b) => a - b)
    .map((n) => ({ n, date: parseSessionDate(raw[`session_${n}_date_time`]), turns: raw[`session_${n}`] }));
  const turnIds = new Set(sessions.flatMap((s) => s.turns.map((t) => t.dia_id)));
  const questions = [];
  raw.qa.forEach((q, index) => {
    const evidence = normalizeEvidence(q.evidence, turnIds);
    if (evidence.length) questions.push({ sample: id, index, question: q.question, category: q.category, evidence });
  });
  return { id, speakerA: raw.speaker_a, speakerB: raw.speaker_b, sessions, questions, questionsInFile: raw.qa.length };
}

/** The sample as our own account export (version 1): one conversation per session. */
function accountExport(sample, actor) {
  const conversations = sample.sessions.map((s) => {
    // One second between turns keeps the order of the session in the times too.
    const at = (i) => new Date(s.date.getTime() + i * 1000).toISOString();
    return {
      format: 'chat-memory.conversation',
      version: 1,
      conversation: {
        title: `${sample.speakerA} and ${sample.speakerB}, session ${s.n}`,
        createdAt: at(0),
        updatedAt: at(s.turns.length - 1),
        threads: [{ name: 'main', systemPrompt: null }],
        messages: s.turns.map((t, i) => ({
          seq: i + 1,
          thread: 'main',
          role: t.speaker === sample.speakerA ? 'user' : 'assistant',
          content: turnText(t),
          status: 'complete',
          model: null,
          createdAt: at(i),
        })),
      },
    };
  });
  return {
    format: 'chat-memory.account',
    version: 1,
    exportedAt: new Date().toISOString(),
    actor,
    agents: [],
    conversations,
  };
}

// ---------------------------------------------------------------------------------------------
// The baselines: BM25 over the stored texts, in this process

// The NLTK English list (words only: the tokenizer splits at apostrophes, leaving `t`, `s`, `don`...).
const STOP_WORDS = new Set(
  (
    'i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her hers herself it its itself ' +
    'they them their theirs themselves what which who whom this that these those am is are was were be been being have has had having ' +
    'do does did doing a an the and but if or because as until while of at by for with about against between into through during ' +
    'before after above below to from up down in out on off over under again further then once here there when where why how all any ' +
    'both each few more most other some such no nor not only own same so than too very s t can will just don should now d ll m o re ' +
    've y ain aren couldn didn doesn hadn hasn haven isn ma mightn mustn needn shan shouldn wasn weren won wouldn'
  ).split(' '),
);

const words = (text) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
export const plainTokens = words;
export const porterTokens = (text) => words(text).map((w) => stemmer(w));
export const stemmedTokens = (text) =>
  words(text)
    .filter((w) => !STOP_WORDS.has(w))
    .map((w) => stemmer(w));

/** Okapi BM25 (k1 1.2, b 0.75, Lucene's idf) over documents given as token arrays. */
export class Bm25 {
  constructor(docs, { k1 = 1.2, b = 0.75 } = {}) {
    this.k1 = k1;
    this.b = b;
    this.n = docs.length;
    this.lengths = Float64Array.from(docs, (d) => d.length);
    this.avgLength = this.lengths.reduce((a, x) => a + x, 0) / Math.max(1, this.n);
    this.postings = new Map();
    docs.forEach((tokens, doc) => {
      const tf = new Map();
      for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
      for (const [t, f] of tf) {
        let list = this.postings.get(t);
        if (!list) this.postings.set(t, (list = []));
        list.push(doc, f);
      }
    });
  }

  /** The best `limit` documents (indexes) for the query's distinct tokens, best first; ties by order. */
  search(tokens, limit) {
    const scores = new Map();
    for (const t of new Set(tokens)) {
      const list = this.postings.get(t);
      if (!list) continue;
      const df = list.length / 2;
      const idf = Math.log(1 + (this.n - df + 0.5) / (df + 0.5));
      for (let i = 0; i < list.length; i += 2) {
        const doc = list[i];
        const f = list[i + 1];
        const norm = f + this.k1 * (1 - this.b + (this.b * this.lengths[doc]) / this.avgLength);
        scores.set(doc, (scores.get(doc) ?? 0) + (idf * f * (this.k1 + 1)) / norm);
      }
    }
    return [...scores]
      .sort((x, y) => y[1] - x[1] || x[0] - y[0])
      .slice(0, limit)
      .map(([doc]) => doc);
  }
}

// ---------------------------------------------------------------------------------------------
// Talking to the service

async function call(port, key, method, path, body, contentType = 'application/json') {
  const started = performance.now();
  const res = await fetch(`http://${HOST}:${port}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': contentType }) },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  const ms = performance.now() - started;
  let parsed = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, body: parsed, ms };
}

async function connectMcp(port, key) {
  const client = new Client({ name: 'chat-memory-bench', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`http://${HOST}:${port}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${key}` } },
    }),
  );
  return client;
}

/** Message ids of an MCP search result, in its order: its structured hits, whatever the list is called. */
function mcpMessageIds(result) {
  const structured = result.structuredContent ?? {};
  const list = Object.values(structured).find((v) => Array.isArray(v)) ?? [];
  return list.map((h) => h?.messageId ?? h?.id ?? null);
}

/** Imports one sample as its actor and maps each dia_id to the stored message (read back from the account export). */
async function importSample(port, key, sample, actor) {
  const file = accountExport(sample, actor);
  const imported = await call(port, key, 'POST', '/api/imports', JSON.stringify(file));
  if (imported.status !== 200)
    throw new Error(
      `import of sample ${sample.id}: HTTP ${imported.status} ${JSON.stringify(imported.body).slice(0, 500)}`,
    );
  const report = imported.body;
  if (report.imported.length !== sample.sessions.length || report.skipped.length) {
    throw new Error(
      `import of sample ${sample.id}: ${report.imported.length} of ${sample.sessions.length} sessions imported, skipped ${JSON.stringify(report.skipped).slice(0, 500)}`,
    );
  }
  const exported = await call(port, key, 'GET', '/api/me/export');
  if (exported.status !== 200) throw new Error(`export of sample ${sample.id}: HTTP ${exported.status}`);
  const byId = new Map(exported.body.conversations.map((c) => [c.conversation.id, c.conversation]));
  const diaToMessage = new Map();
  const turns = []; // { messageId, dia, text }, in the order of the history
  sample.sessions.forEach((session, i) => {
    const stored = byId.get(report.imported[i].id);
    const messages = (stored?.messages ?? []).filter((m) => m.thread === 'main').sort((a, b) => a.seq - b.seq);
    if (messages.length !== session.turns.length)
      throw new Error(
        `sample ${sample.id} session ${session.n}: ${messages.length} messages stored for ${session.turns.length} turns`,
      );
    session.turns.forEach((t, j) => {
      diaToMessage.set(t.dia_id, messages[j].id);
      turns.push({ messageId: messages[j].id, dia: t.dia_id, text: messages[j].content });
    });
  });
  return { diaToMessage, turns, importMs: imported.ms };
}

/** Where each evidence message stands in a ranked list of message ids (1-based; absent: not found). */
function score(ranked, evidenceIds) {
  const rankOf = new Map();
  ranked.forEach((id, i) => {
    if (id && !rankOf.has(id)) rankOf.set(id, i + 1);
  });
  return { returned: ranked.length, ranks: evidenceIds.map((id) => rankOf.get(id) ?? null) };
}

// ---------------------------------------------------------------------------------------------
// The run

export async function recall({ quick = false } = {}, log = console.log) {
  const missing = [...TUNING, ...HELD_OUT].filter((id) => !existsSync(join(SAMPLE_DIR, `${id}.json`)));
  if (missing.length) {
    const note = `skipped: LoCoMo is not at ${relative(ROOT, SAMPLE_DIR)} (samples ${missing.join(', ')} missing; LoCoMo, snap-research/locomo, is read from there and never kept in the repository)`;
    log(`  ${note}`);
    return { skipped: note };
  }
  const samples = [...TUNING, ...HELD_OUT].map(readSample);
  const keys = new Map(samples.map((s) => [s.id, `locomo-${s.id}-bench-key`]));

  let requests = [];
  const model = await startFakeOpenAi({ onRequest: (body) => requests.push(body) });
  const tmp = tempDir('recall');
  let server;
  const clients = [];
  try {
    server = await startServer({
      script: DIST_MAIN,
      label: 'recall',
      env: {
        DATABASE_URL: `sqlite:${join(tmp.dir, 'recall.sqlite')}`,
        API_KEYS: samples.map((s) => `locomo${s.id}:${keys.get(s.id)}`).join(','),
        LLM_BASE_URL: model.url,
        LLM_API_KEY: 'bench',
        LLM_MODEL: 'bench-model',
        SUMMARY_MODE: 'off',
        RATE_LIMIT_PER_MINUTE: '0',
      },
    });
    const port = server.port;
    const perQuestion = [];
    const availability = {};
    const startedAt = performance.now();
    for (const sample of samples) {
      const key = keys.get(sample.id);
      const actor = `api:locomo${sample.id}`;
      const { diaToMessage, turns, importMs } = await withServerLog(server, importSample(port, key, sample, actor));
      const textOf = new Map(turns.map((t) => [t.messageId, t.text]));
      const baselines = [
        ['bm25', plainTokens],
        ['bm25Porter', porterTokens],
        ['bm25Stemmed', stemmedTokens],
      ].map(([id, tokens]) => ({ id, tokens, index: new Bm25(turns.map((x) => tokens(x.text))) }));
      const mcp = await connectMcp(port, key);
      clients.push(mcp);
      const tools = new Set((await mcp.listTools()).tools.map((t) => t.name));
      availability.mcpMessages ??= tools.has('search_messages') ? true : 'not listed by tools/list';
      const questions = quick ? sample.questions.filter((_, i) => i % QUICK_STRIDE === 0) : sample.questions;
      for (const q of questions) {
        const evidenceIds = q.evidence.map((d) => diaToMessage.get(d));
        const row = {
          sample: sample.id,
          index: q.index,
          category: q.category,
          evidence: q.evidence.length,
          methods: {},
        };
        const query = encodeURIComponent(q.question);

        if (availability.messageSearch !== 'not available') {
          const res = await call(port, key, 'GET', `/api/search?q=${query}&limit=${LIMIT}`);
          if (res.status === 404 && availability.messageSearch === undefined) {
            availability.messageSearch = 'not available';
          } else {
            availability.messageSearch = true;
            const ids = res.status === 200 ? res.body.items.map((h) => h.messageId) : [];
            row.methods.messageSearch = { ...score(ids, evidenceIds), ms: res.ms, status: res.status };
          }
        }

        const conv = await call(port, key, 'GET', `/api/conversations?q=${query}&limit=${LIMIT}`);
        const convIds = conv.status === 200 ? conv.body.items.map((h) => h.messageId ?? null) : [];
        row.methods.conversationSearch = { ...score(convIds, evidenceIds), ms: conv.ms, status: conv.status };

        let t = performance.now();
        const found = await mcp.callTool({
          name: 'search_conversations',
          arguments: { query: q.question, limit: LIMIT },
        });
        row.methods.mcpConversations = {
          ...score(found.isError ? [] : mcpMessageIds(found), evidenceIds),
          ms: performance.now() - t,
          status: found.isError ? 'error' : 200,
        };

        if (availability.mcpMessages === true) {
          t = performance.now();
          const hits = await mcp.callTool({ name: 'search_messages', arguments: { query: q.question, limit: LIMIT } });
          row.methods.mcpMessages = {
            ...score(hits.isError ? [] : mcpMessageIds(hits), evidenceIds),
            ms: performance.now() - t,
            status: hits.isError ? 'error' : 200,
          };
        }

        // What a new conversation's first turn sends the model: every request it made, the new
        // message itself left out; an evidence turn counts when its stored text is in there (or its
        // id in the reply's recalledMessageIds, when the reply lists them).
        requests = [];
        const turn = await call(port, key, 'POST', '/api/chat', { message: q.question });
        const sent = requests
          .flatMap((body) => (body.messages ?? []).slice(0, -1))
          .map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)));
        const context = sent.join('\n');
        const recalled = new Set(turn.body?.recalledMessageIds ?? []);
        const carried = evidenceIds.map((id) => (recalled.has(id) || context.includes(textOf.get(id)) ? 1 : null));
        const turnsCarried = turns.filter((x) => recalled.has(x.messageId) || context.includes(x.text)).length;
        row.methods.firstTurn = {
          returned: turnsCarried,
          ranks: carried,
          ms: turn.ms,
          status: turn.status,
          contextChars: context.length,
        };
        if (turn.status === 200) {
          const del = await call(port, key, 'DELETE', `/api/conversations/${turn.body.conversationId}`);
          if (del.status !== 204) throw new Error(`DELETE of the turn's conversation: HTTP ${del.status}`);
        }

        for (const { id, tokens, index } of baselines) {
          t = performance.now();
          const hits = index.search(tokens(q.question), LIMIT).map((i) => turns[i].messageId);
          row.methods[id] = { ...score(hits, evidenceIds), ms: performance.now() - t, status: 200 };
        }
        perQuestion.push(row);
      }
      log(
        `  sample ${sample.id}: ${sample.sessions.length} sessions, ${turns.length} turns imported in ${round(importMs, 0)} ms; ${questions.length} questions asked`,
      );
    }
    const elapsedS = (performance.now() - startedAt) / 1000;

    const splits = { tuning: TUNING, heldOut: HELD_OUT, all: [...TUNING, ...HELD_OUT] };
    const result = {
      quick,
      source: relative(ROOT, LOCOMO_DIR),
      samples: samples.map((s) => ({
        id: s.id,
        sessions: s.sessions.length,
        turns: s.sessions.reduce((a, x) => a + x.turns.length, 0),
        questions: s.questions.length,
        questionsInFile: s.questionsInFile,
      })),
      questionsAsked: perQuestion.length,
      methods: METHODS,
      elapsedS: round(elapsedS, 1),
      availability: {
        messageSearch: availability.messageSearch ?? 'not available',
        mcpMessages: availability.mcpMessages ?? 'not listed by tools/list',
      },
      splits: {},
    };
    for (const [name, ids] of Object.entries(splits)) {
      const rows = perQuestion.filter((r) => ids.includes(r.sample));
      result.splits[name] = { samples: ids, groups: groupFigures(rows) };
    }
    printFigures(result, log);
    return result;
  } finally {
    for (const c of clients) await c.close().catch(() => undefined);
    await server?.stop();
    await model.close();
    tmp.remove();
  }
}

/** The figures of each method over a set of questions: per category, categories 1-4, and all. */
function groupFigures(rows) {
  const groups = {};
  for (const c of Object.keys(CATEGORIES))
    groups[`category ${c} ${CATEGORIES[c]}`] = rows.filter((r) => String(r.category) === c);
  groups['categories 1-4'] = rows.filter((r) => r.category !== 5);
  groups['all (1-5)'] = rows;
  const out = {};
  for (const [group, members] of Object.entries(groups)) {
    out[group] = {};
    for (const m of METHODS) {
      const entries = members.map((r) => r.methods[m.id]).filter(Boolean);
      if (entries.length) out[group][m.id] = figures(entries, m.id === 'firstTurn');
    }
  }
  return out;
}

/**
 * recall@k: for each question, the share of its evidence turns among the first k results, then
 * the mean over questions. MRR: the mean of 1 / the rank of the first evidence turn (0 when none is
 * returned). For the turn there is no rank: `carried` is the share of evidence turns in the request.
 */
function figures(entries, unranked) {
  const mean = (f) => entries.reduce((a, e) => a + f(e), 0) / entries.length;
  const share = (e, k) => e.ranks.filter((r) => r !== null && r <= k).length / e.ranks.length;
  const latency = summarize(entries.map((e) => e.ms));
  const out = {
    questions: entries.length,
    noResult: round(
      mean((e) => (e.returned === 0 ? 1 : 0)),
      4,
    ),
    failed: entries.filter((e) => e.status !== 200).length,
    p50Ms: round(latency.p50, 2),
    p99Ms: round(latency.p99, 2),
  };
  if (unranked)
    return {
      ...out,
      carried: round(
        mean((e) => share(e, Infinity)),
        5,
      ),
      turnsCarried: round(
        mean((e) => e.returned),
        2,
      ),
    };
  for (const k of KS)
    out[`recallAt${k}`] = round(
      mean((e) => share(e, k)),
      5,
    );
  const reciprocalRank = (e) => {
    const first = Math.min(...e.ranks.filter((r) => r !== null));
    return Number.isFinite(first) ? 1 / first : 0;
  };
  out.mrr = round(mean(reciprocalRank), 4);
  return out;
}

function printFigures(result, log) {
  const pct = (x) => (x === undefined ? '-' : (100 * x).toFixed(1));
  const head = ['method', 'n', 'R@1', 'R@5', 'R@10', 'R@50', 'MRR', 'none %', 'p50 ms', 'p99 ms'];
  const widths = [32, 5, 6, 6, 6, 6, 6, 7, 8, 8];
  const line = (cells) =>
    cells.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join(' ');
  log(
    '\n  recall@k: per question, the share of its evidence turns among the first k results, averaged over questions (in %).',
  );
  log(
    '  MRR: mean of 1/rank of the first evidence turn (0 if none of the 50 results). none: questions with no result at all.',
  );
  log(
    `  A new conversation's first turn: "carried" (in the R@50 column) is the share of evidence turns whose text was in what the model was sent; none: nothing of the history was sent.`,
  );
  const titles = {
    tuning: `tuning samples (${TUNING.join(', ')})`,
    heldOut: `held-out samples (${HELD_OUT.join(', ')})`,
    all: 'all ten samples',
  };
  for (const [name, split] of Object.entries(result.splits)) {
    log(`\n  ${titles[name]}`);
    for (const [group, byMethod] of Object.entries(split.groups)) {
      const n = Object.values(byMethod)[0]?.questions ?? 0;
      log(`  ${group}: ${n} questions`);
      log(`    ${line(head)}`);
      for (const m of METHODS) {
        const f = byMethod[m.id];
        if (!f) {
          const why =
            m.id === 'messageSearch'
              ? result.availability.messageSearch
              : m.id === 'mcpMessages'
                ? result.availability.mcpMessages
                : 'no data';
          log(`    ${line([m.label, '', why])}`);
          continue;
        }
        const recalls =
          f.carried !== undefined
            ? ['-', '-', '-', pct(f.carried), '-']
            : [pct(f.recallAt1), pct(f.recallAt5), pct(f.recallAt10), pct(f.recallAt50), f.mrr.toFixed(3)];
        log(
          `    ${line([m.label + (f.failed ? ` (${f.failed} failed)` : ''), f.questions, ...recalls, pct(f.noResult), f.p50Ms.toFixed(2), f.p99Ms.toFixed(2)])}`,
        );
      }
    }
  }
  log(`\n  ${result.questionsAsked} questions in ${result.elapsedS} s`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await recall({ quick: process.argv.includes('--quick') });
}

import { createRequire } from 'node:module';
import { FakeOpenAiServer, type Behaviour } from '../../fakes/fake-openai-server.js';
import { startBuiltServer, type ServerProcess } from '../../support/server-process.js';
import { DIALECT, tempDir } from '../../support/test-app.js';

/** The part of better-sqlite3's API used here (the package ships no type declarations). */
interface SqliteFile {
  pragma(source: string): unknown;
  prepare(sql: string): { all(): unknown[] };
  close(): void;
}
const Database = createRequire(import.meta.url)('better-sqlite3') as new (
  path: string,
  options: { readonly: boolean; fileMustExist: boolean },
) => SqliteFile;

/**
 * The built server under concurrent chat load is killed with SIGKILL, then started again on
 * the same SQLite file. Every turn the client saw answered must be stored exactly as answered,
 * the file must be intact, `seq` must stay gapless with each question followed by its reply,
 * and the replies cut off by the kill must be closed (failed, interrupted) by the janitor.
 * SQLite only: it is about the local file.
 */
const onSqlite = DIALECT === 'sqlite' ? describe : describe.skip;

const CONVERSATIONS = 4;
const THREADS = ['main', 'side'] as const;
/** Upper bound of turns per worker (one worker per conversation and thread). */
const MAX_TURNS_PER_WORKER = 25;
/** The server is killed once this many turns have been answered. */
const KILL_AFTER_ANSWERED = 40;
const REPLY_LEASE_MS = 1_000;
const INTERRUPTED =
  'The reply was interrupted: the server generating it stopped, or could not store it, before it was finished';

type Route = 'chat' | 'stream';

interface Turn {
  readonly conversationId: string;
  readonly thread: string;
  readonly route: Route;
  readonly question: string;
  state: 'pending' | 'answered' | 'refused' | 'cut';
  /** HTTP status, for a JSON answer. */
  status?: number;
  /** The reply text the client got (2xx answers only). */
  reply?: string;
  userMessageId?: string;
  messageId?: string;
  /** Streaming only: the text of the delta events received. */
  partial?: string;
  error?: string;
}

interface Row {
  id: string;
  conversation_id: string;
  thread: string;
  seq: number;
  role: string;
  content: string;
  status: string;
  error_code: string | null;
  error_message: string | null;
  lease_until: string | null;
}

/** Text with some multi-byte characters, so the check covers more than ASCII. */
const flavour = (n: number) => ['plain', 'ünïcødé', '日本語', 'emoji 🚀🧪', 'RTL שלום', 'zero\u200bwidth'][n % 6];

/** Deterministic model delays (60-460 ms), so turns overlap and many are in flight at any moment. */
function modelBehaviours(count: number): Behaviour[] {
  return Array.from({ length: count }, (_, i) => ({
    kind: 'reply' as const,
    delayMs: 60 + ((i * 97) % 400),
    text: `Answer ${i}: ${flavour(i)} ${'lorem ipsum '.repeat(1 + (i % 7))}end.`,
  }));
}

async function send(baseUrl: string, turn: Turn): Promise<void> {
  const body = JSON.stringify({ message: turn.question, conversationId: turn.conversationId, thread: turn.thread });
  const res = await fetch(`${baseUrl}/api/chat${turn.route === 'stream' ? '/stream' : ''}`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: turn.route === 'stream' ? 'text/event-stream' : 'application/json',
    },
    body,
    signal: AbortSignal.timeout(30_000),
  });
  turn.status = res.status;
  if (turn.route === 'chat' || !(res.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
    const json = (await res.json()) as Record<string, unknown>;
    if (res.status >= 200 && res.status < 300) {
      turn.state = 'answered';
      turn.reply = json.reply as string;
      turn.userMessageId = json.userMessageId as string;
      turn.messageId = json.messageId as string;
      if (json.status !== 'complete') turn.error = `status ${String(json.status)}`;
    } else {
      turn.state = 'refused';
      turn.error = JSON.stringify(json);
    }
    return;
  }
  // Server-sent events: `conversation`, `delta`s, then `done` (or `error`).
  turn.partial = '';
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let boundary: number;
    while ((boundary = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, boundary);
      buffer = buffer.slice(boundary + 2);
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const dataLine = /^data: (.*)$/m.exec(block)?.[1];
      if (!event || dataLine === undefined) continue;
      const data = JSON.parse(dataLine);
      if (event === 'conversation') {
        turn.userMessageId = data.userMessageId;
        turn.messageId = data.messageId;
      } else if (event === 'delta') {
        turn.partial += data.text;
      } else if (event === 'done') {
        turn.state = 'answered';
        turn.reply = data.reply;
        if (data.status !== 'complete') turn.error = `status ${String(data.status)}`;
        return;
      } else if (event === 'error') {
        turn.state = 'refused';
        turn.error = JSON.stringify(data);
        return;
      }
    }
  }
  // The stream ended without done or error: the connection was cut.
  throw new Error('stream ended without done');
}

onSqlite('crash durability: SIGKILL under concurrent chat load, then restart on the same SQLite file', () => {
  let fake: FakeOpenAiServer;
  let tmp: ReturnType<typeof tempDir>;
  const servers: ServerProcess[] = [];

  beforeAll(async () => {
    fake = await FakeOpenAiServer.start();
    tmp = tempDir();
  });
  afterAll(async () => {
    for (const server of servers) await server.stop('SIGKILL');
    await fake.close();
    tmp.remove();
  });

  it('keeps every answered turn, keeps the file intact and closes the replies cut off by the kill', async () => {
    const dbPath = `${tmp.dir}/chat.sqlite`;
    const env = {
      DATABASE_URL: `sqlite:${dbPath}`,
      LLM_BASE_URL: fake.url,
      LLM_API_KEY: 'sk-test-secret',
      LLM_MODEL: 'fake-model',
      LLM_MAX_RETRIES: '0',
      LLM_TIMEOUT_MS: '20000',
      SUMMARY_MODE: 'off',
      REPLY_LEASE_MS: String(REPLY_LEASE_MS),
      STREAM_FLUSH_MS: '100',
      SHUTDOWN_GRACE_MS: '5000',
    };
    fake.enqueue(...modelBehaviours(CONVERSATIONS * THREADS.length * (MAX_TURNS_PER_WORKER + 2)));

    // --- First run: concurrent turns, killed mid-load.
    const first = await startBuiltServer(env);
    servers.push(first);
    const conversationIds: string[] = [];
    for (let c = 0; c < CONVERSATIONS; c++) {
      const res = await fetch(`${first.url}/api/conversations`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ title: `crash test ${c}` }),
      });
      expect(res.status).toBe(201);
      conversationIds.push(((await res.json()) as { id: string }).id);
    }

    const turns: Turn[] = [];
    let killed = false;
    let answered = 0;
    let triggerKill!: () => void;
    const killTime = new Promise<void>((resolve) => (triggerKill = resolve));

    const worker = async (conversationId: string, thread: string, w: number) => {
      for (let k = 0; k < MAX_TURNS_PER_WORKER && !killed; k++) {
        const turn: Turn = {
          conversationId,
          thread,
          route: (k + w) % 2 === 0 ? 'chat' : 'stream',
          question: `Question ${w}.${k} in ${thread}: ${flavour(k + w)}`,
          state: 'pending',
        };
        turns.push(turn);
        try {
          await send(first.url, turn);
        } catch (error) {
          if (turn.state === 'pending') turn.error = String(error);
          if (killed) return;
          // A failure before the kill is a finding: recorded as refused and checked below.
          turn.state = 'refused';
          return;
        }
        if (turn.state === 'answered' && ++answered >= KILL_AFTER_ANSWERED) triggerKill();
      }
    };
    const workers = conversationIds.flatMap((id, c) =>
      THREADS.map((thread, t) => worker(id, thread, c * THREADS.length + t)),
    );
    // Kill once enough turns were answered (or, should the workers run out first, when they end).
    await Promise.race([killTime, Promise.all(workers)]);
    // Kill at a moment when at least one reply is known to be stored and waiting on the model (a
    // streamed turn that has its ids but no answer yet), so the kill surely cuts one off.
    const waiting = () => turns.some((t) => t.state === 'pending' && t.route === 'stream' && t.messageId !== undefined);
    for (let i = 0; i < 1_000 && !waiting(); i++) await new Promise((r) => setTimeout(r, 5));
    killed = true;
    const inFlightAtKill = turns.filter((t) => t.state === 'pending');
    const answeredBeforeKill = turns.filter((t) => t.state === 'answered').length;
    first.child.kill('SIGKILL');
    expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });
    await Promise.all(workers);
    for (const t of turns) if (t.state === 'pending') t.state = 'cut';

    // No request was refused or failed before the kill.
    expect(
      turns.filter((t) => t.state === 'refused').map((t) => ({ q: t.question, status: t.status, error: t.error })),
    ).toEqual([]);
    expect(turns.filter((t) => t.state === 'answered' && t.error).map((t) => t.error)).toEqual([]);
    expect(answeredBeforeKill).toBeGreaterThanOrEqual(KILL_AFTER_ANSWERED);
    expect(inFlightAtKill.length).toBeGreaterThan(0);

    // --- Second run on the same file: the janitor closes what the kill cut off.
    const second = await startBuiltServer(env);
    servers.push(second);
    const streamingLeft = async () => {
      let count = 0;
      for (const id of conversationIds) {
        const res = await fetch(`${second.url}/api/conversations/${id}`);
        expect(res.status).toBe(200);
        const detail = (await res.json()) as { messages: Array<{ status: string }> };
        count += detail.messages.filter((m) => m.status === 'streaming').length;
      }
      return count;
    };
    // Bounded wait: leases run out REPLY_LEASE_MS after the kill; the janitor sweeps every lease period.
    for (let i = 0; i < 100 && (await streamingLeft()) > 0; i++) await new Promise((r) => setTimeout(r, 200));
    expect(await streamingLeft()).toBe(0);

    // The conversations take new turns after the crash, in every thread.
    for (const id of conversationIds) {
      for (const thread of THREADS) {
        const res = await fetch(`${second.url}/api/chat`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ message: `after the restart, ${thread}`, conversationId: id, thread }),
        });
        expect(res.status).toBe(200);
      }
    }
    const secondExit = await second.stop('SIGTERM');
    // A clean stop: Nest closes the app and then re-raises the signal (or the process exits 0).
    expect([JSON.stringify({ code: 0, signal: null }), JSON.stringify({ code: null, signal: 'SIGTERM' })]).toContain(
      JSON.stringify(secondExit),
    );
    // What the janitor of the second process reports having closed (it logs each sweep that closed any).
    const closedByJanitor = [...second.output().matchAll(/Closed (\d+) interrupted repl/g)].reduce(
      (n, m) => n + Number(m[1]),
      0,
    );

    // --- The file, read directly once no server has it open.
    const db = new Database(dbPath, { readonly: true, fileMustExist: true });
    let rows: Row[];
    try {
      expect(db.pragma('integrity_check')).toEqual([{ integrity_check: 'ok' }]);
      expect(db.pragma('foreign_key_check')).toEqual([]);
      rows = db
        .prepare(
          'SELECT id, conversation_id, thread, seq, role, content, status, error_code, error_message, lease_until FROM messages ORDER BY conversation_id, seq',
        )
        .all() as Row[];
      const lastSeqs = db.prepare('SELECT id, last_seq FROM conversations').all() as Array<{
        id: string;
        last_seq: number;
      }>;
      for (const { id, last_seq } of lastSeqs) {
        expect({ id, lastSeq: last_seq }).toEqual({ id, lastSeq: rows.filter((r) => r.conversation_id === id).length });
      }
    } finally {
      db.close();
    }

    // seq is 1..n per conversation: no gap, no repeat; each question is directly followed by its reply.
    for (const id of conversationIds) {
      const mine = rows.filter((r) => r.conversation_id === id);
      expect(mine.map((r) => r.seq)).toEqual(mine.map((_, i) => i + 1));
      for (let i = 0; i < mine.length; i += 2) {
        expect([mine[i].role, mine[i + 1]?.role, mine[i + 1]?.thread]).toEqual(['user', 'assistant', mine[i].thread]);
      }
    }
    expect(rows.filter((r) => r.status === 'streaming' || r.lease_until !== null)).toEqual([]);

    const pairOf = (turn: Turn) => {
      const questions = rows.filter((r) => r.role === 'user' && r.content === turn.question);
      expect(questions.length).toBeLessThanOrEqual(1);
      if (!questions.length) return null;
      const question = questions[0];
      const reply = rows.find((r) => r.conversation_id === question.conversation_id && r.seq === question.seq + 1)!;
      return { question, reply };
    };

    // Every answered turn is stored whole: its question, and its reply with the text the client got.
    const answeredTurns = turns.filter((t) => t.state === 'answered');
    for (const turn of answeredTurns) {
      const pair = pairOf(turn);
      expect(pair).not.toBeNull();
      expect({ question: pair!.question.status, reply: pair!.reply.status, text: pair!.reply.content }).toEqual({
        question: 'complete',
        reply: 'complete',
        text: turn.reply,
      });
      expect([pair!.question.id, pair!.reply.id, pair!.question.thread]).toEqual([
        turn.userMessageId,
        turn.messageId,
        turn.thread,
      ]);
    }

    // What became of the turns in flight at the kill: each is either not stored at all, or a
    // whole pair whose reply is complete (stored just before the kill) or failed as interrupted.
    const fate = { answeredAnyway: 0, notStored: 0, interrupted: 0, interruptedWithText: 0, completeButUnanswered: 0 };
    for (const turn of inFlightAtKill) {
      if (turn.state === 'answered') {
        fate.answeredAnyway++;
        continue;
      }
      const pair = pairOf(turn);
      if (!pair) {
        fate.notStored++;
        continue;
      }
      expect(pair.question.status).toBe('complete');
      if (pair.reply.status === 'complete') {
        fate.completeButUnanswered++;
        continue;
      }
      expect({ status: pair.reply.status, error: pair.reply.error_code, message: pair.reply.error_message }).toEqual({
        status: 'failed',
        error: 'interrupted',
        message: INTERRUPTED,
      });
      fate.interrupted++;
      if (pair.reply.content !== '') fate.interruptedWithText++;
      // A streamed reply keeps the text saved up to its last progress tick: a prefix of what was generated.
      if (turn.partial !== undefined && pair.reply.content)
        expect(turn.partial.startsWith(pair.reply.content) || pair.reply.content.startsWith(turn.partial)).toBe(true);
    }
    // The kill lands while model calls are pending, so some replies were cut off and closed.
    expect(fate.interrupted).toBeGreaterThan(0);
    // Nobody else touched them before the check above: the janitor closed every one.
    expect(closedByJanitor).toBe(fate.interrupted);
    // No other turn (e.g. one cut off before its question was stored) left anything behind.
    const known = new Set([
      ...turns.map((t) => t.question),
      ...THREADS.map((thread) => `after the restart, ${thread}`),
    ]);
    expect(rows.filter((r) => r.role === 'user' && !known.has(r.content))).toEqual([]);

    console.log(
      [
        `crash durability: ${turns.length} turns sent on ${workers.length} concurrent workers (${CONVERSATIONS} conversations x ${THREADS.length} threads);`,
        `${answeredBeforeKill} answered before the SIGKILL, all ${answeredTurns.length} answered turns found stored with the text the client got;`,
        `${inFlightAtKill.length} in flight at the kill: ${fate.interrupted} stored and closed as failed (interrupted) after the restart` +
          ` (${fate.interruptedWithText} with partial text), ${fate.notStored} not stored (question not yet committed),` +
          ` ${fate.completeButUnanswered} stored complete but unanswered (the answer died with the connection), ${fate.answeredAnyway} answered anyway;`,
        `the janitor closed ${closedByJanitor}; ${rows.length} messages stored, seq gapless, integrity_check ok.`,
      ].join('\n'),
    );
  }, 180_000);
});

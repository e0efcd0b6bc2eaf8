import { parseConversationExport } from './export-parse.js';
import { type ImportRejectedError, MAX_LISTED_PROBLEMS } from './import-problems.js';
import { normalizeTags } from '../conversations/tags.js';
import { renderMarkdown } from './export-markdown.js';
import { forkTitle } from './conversation-forks.js';
import { problemsOfRejected } from '../../test/support/import-rejection.js';

const limits = { maxMessageChars: 100 };
const at = '2026-11-30T05:55:56.814Z';
const message = (seq: number, extra: Record<string, unknown> = {}) => ({
  seq,
  thread: 'main',
  role: seq % 2 ? 'user' : 'assistant',
  content: `m${seq}`,
  status: 'complete',
  model: null,
  promptTokens: null,
  completionTokens: null,
  error: null,
  createdAt: at,
  versions: [],
  toolCalls: [],
  ...extra,
});
const doc = (conversation: Record<string, unknown> = {}) => ({
  format: 'chat-memory.conversation',
  version: 1,
  exportedAt: at,
  conversation: {
    title: 'T',
    createdAt: at,
    updatedAt: at,
    state: {},
    messages: [message(1), message(2)],
    ...conversation,
  },
});

const problemsOf = (input: unknown) => problemsOfRejected(() => parseConversationExport(input, limits));

describe('parseConversationExport', () => {
  it('renumbers seq without gaps and maps what summaries cover', async () => {
    const parsed = await parseConversationExport(
      doc({
        messages: [message(3), message(8), message(9, { thread: 'side' }), message(12, { thread: 'side' })],
        summaries: [
          { thread: 'main', content: 's', coversSeq: 10, tokens: 1, model: 'm' },
          { thread: 'side', content: 's', coversSeq: 2, tokens: 1, model: 'm' },
        ],
      }),
      limits,
    );
    expect(parsed.messages.map((m) => [m.seq, m.content])).toEqual([
      [1, 'm3'],
      [2, 'm8'],
      [3, 'm9'],
      [4, 'm12'],
    ]);
    // Covering old seq 10 is covering everything up to m9; a summary of nothing imported is dropped.
    expect(parsed.summaries.map((s) => [s.thread, s.coversSeq])).toEqual([['main', 3]]);
    expect(parsed.threads.map((t) => t.name)).toEqual(['main', 'side']);
  });

  it('imports a streaming reply as failed, normalizes tags and the title', async () => {
    const parsed = await parseConversationExport(
      doc({
        title: '  Two\nlines  ',
        tags: [' Work', 'work', 'B'],
        messages: [message(1), message(2, { status: 'streaming', content: 'par' })],
      }),
      limits,
    );
    expect(parsed.title).toBe('Two lines');
    expect(parsed.tags).toEqual(['b', 'work']);
    expect(parsed.messages[1]).toMatchObject({
      status: 'failed',
      content: 'par',
      errorCode: 'interrupted',
      errorMessage: expect.stringMatching(/still being generated/),
    });
  });

  it('gives assistant replies room beyond MAX_MESSAGE_CHARS, not user messages', async () => {
    await expect(
      parseConversationExport(doc({ messages: [message(1), message(2, { content: 'x'.repeat(5_000) })] }), limits),
    ).resolves.toBeDefined();
    expect(await problemsOf(doc({ messages: [message(1, { content: 'x'.repeat(101) })] }))).toEqual([
      {
        path: '$.conversation.messages[0].content',
        message: 'is 101 characters long; the limit is 100 (MAX_MESSAGE_CHARS)',
      },
    ]);
    expect(await problemsOf(doc({ messages: [message(1, { content: '  ' })] }))).toEqual([
      { path: '$.conversation.messages[0].content', message: 'must not be empty for a user message' },
    ]);
    expect(await problemsOf(doc({ messages: [message(1, { status: 'failed' })] }))).toEqual([
      { path: '$.conversation.messages[0].status', message: 'must be "complete" for a user message' },
    ]);
  });

  it('checks versions, tool calls, threads and summaries, with their paths', async () => {
    const problems = await problemsOf(
      doc({
        threads: [
          { name: 'main', systemPrompt: 1 },
          { name: 'main', systemPrompt: null },
        ],
        summaries: [{ thread: 'main', content: 's', coversSeq: 0, tokens: 1, model: '' }],
        messages: [
          message(1),
          message(2, {
            versions: [{ content: 'old', status: 'streaming', createdAt: at }],
            toolCalls: [{ name: 'update_state', arguments: {} }],
          }),
        ],
      }),
    );
    expect(problems).toEqual([
      {
        path: '$.conversation.messages[1].versions[0].status',
        message: 'must be one of: complete, truncated, failed, cancelled',
      },
      { path: '$.conversation.messages[1].toolCalls[0].arguments', message: 'must be a string' },
      { path: '$.conversation.messages[1].toolCalls[0].result', message: 'is missing (a string)' },
      { path: '$.conversation.threads[0].systemPrompt', message: 'must be a string' },
      { path: '$.conversation.threads[1].name', message: '"main" is listed twice' },
      { path: '$.conversation.summaries[0].coversSeq', message: 'must be an integer from 1 to 2147483647' },
      { path: '$.conversation.summaries[0].model', message: 'must not be empty' },
    ]);
  });

  it(`lists at most ${MAX_LISTED_PROBLEMS} problems but counts them all`, async () => {
    try {
      await parseConversationExport(
        doc({ messages: Array.from({ length: 50 }, (_, i) => message(i + 1, { role: 'system' })) }),
        limits,
      );
      throw new Error('expected a rejection');
    } catch (error) {
      const rejected = error as ImportRejectedError;
      expect(rejected.problems).toHaveLength(MAX_LISTED_PROBLEMS);
      expect(rejected.total).toBe(50);
      expect(rejected.message).toMatch(/\(and 47 more problems\)$/);
    }
  });

  it('lets the event loop run while it checks a long conversation, and numbers problems across slices [slow]', async () => {
    let turns = 0;
    let ticking = true;
    const tick = () => {
      turns++;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const messages = Array.from({ length: 5_000 }, (_, i) => message(i + 1, i === 4_321 ? { content: 7 } : {}));
    const problems = await problemsOf(doc({ messages }));
    ticking = false;
    expect(problems).toEqual([{ path: '$.conversation.messages[4321].content', message: 'must be a string' }]);
    // Five slices of 1,000 messages: the loop turned between them.
    expect(turns).toBeGreaterThanOrEqual(4);
  });

  it('refuses a state nested too deeply to serialize, instead of failing', async () => {
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 20_000; i++) deep = { a: deep };
    expect(await problemsOf(doc({ state: deep }))).toEqual([
      { path: '$.conversation.state', message: 'is nested too deeply' },
    ]);
  });

  it('refuses an array where an item object belongs, even an empty one', async () => {
    expect(await problemsOf(doc({ threads: [[]], messages: [[message(1)], message(1)] }))).toEqual([
      { path: '$.conversation.messages[0]', message: 'must be a JSON object' },
      { path: '$.conversation.threads[0]', message: 'must be a JSON object' },
    ]);
  });

  it('reads only the described fields: unknown keys and objects in place of a scalar are not walked', async () => {
    // Walking an untyped object costs time quadratic in its keys (class-transformer dedupes them).
    let reads = 0;
    const counted = () =>
      new Proxy(Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`k${i}`, i])), {
        get: (target, key) => (reads++, Reflect.get(target, key)),
      });
    const problems = await problemsOf(
      doc({ unknown: counted(), messages: [message(1, { content: counted(), extra: counted() })] }),
    );
    expect(problems).toEqual([{ path: '$.conversation.messages[0].content', message: 'must be a string' }]);
    expect(reads).toBeLessThan(10);
  });

  it('stops at a foreign format or another version', async () => {
    expect(await problemsOf(null)).toEqual([{ path: '$', message: 'must be a JSON object' }]);
    expect(await problemsOf({ format: 'other', version: 7, conversation: 1 })).toEqual([
      {
        path: '$.format',
        message: 'must be "chat-memory.conversation" (this is not a conversation export of this service)',
      },
    ]);
    expect(await problemsOf({ ...doc(), version: 0 })).toEqual([{ path: '$.version', message: 'must be 1 or 2' }]);
  });
});

describe('normalizeTags and forkTitle', () => {
  it('normalizes tags like the service stores them', () => {
    expect(normalizeTags(['B', ' a ', 'b', ''])).toEqual(['a', 'b']);
  });

  it('keeps " (fork)" whole within 60 characters, never splitting an emoji', () => {
    expect(forkTitle('Trip')).toBe('Trip (fork)');
    expect(forkTitle('😀'.repeat(60))).toBe(`${'😀'.repeat(53)} (fork)`);
    expect(Array.from(forkTitle('x'.repeat(60)))).toHaveLength(60);
  });
});

describe('renderMarkdown', () => {
  it('fences tool calls with a fence longer than any backticks inside', () => {
    const parsed = doc({
      messages: [message(1), message(2, { toolCalls: [{ name: 't', arguments: '```', result: '{}' }] })],
    });
    const md = renderMarkdown({
      ...parsed,
      conversation: {
        ...parsed.conversation,
        id: 'x',
        archived: false,
        pinned: false,
        tags: [],
        agent: null,
        threads: [],
        summaries: [],
      },
    } as never);
    expect(md).toContain('````\nt ```\n→ {}\n````');
    expect(md).toContain('## Thread: main');
  });
});

import { chatGptConversation, type GptNode } from './archive-builders.js';
import { type ArchiveConversation, type ArchiveEntry, DEFAULT_ARCHIVE_LIMITS } from './archive.types.js';
import { readChatGptConversation } from './chatgpt-reader.js';

function read(raw: unknown, limits = DEFAULT_ARCHIVE_LIMITS): ArchiveEntry {
  return readChatGptConversation(raw, 0, limits);
}

function conversation(raw: unknown): ArchiveConversation {
  const entry = read(raw);
  if (entry.kind !== 'conversation') throw new Error(`skipped: ${entry.skipped.reason}`);
  return entry.conversation;
}

function reason(raw: unknown, limits = DEFAULT_ARCHIVE_LIMITS): string {
  const entry = read(raw, limits);
  if (entry.kind !== 'skipped') throw new Error('expected a skip');
  return entry.skipped.reason;
}

const start: GptNode[] = [
  ['root', null, null],
  ['sys', 'root', { role: 'system', text: '', hidden: true }],
];

describe('ChatGPT conversations.json reader', () => {
  it('reads a plain exchange with times, model, title and the active leaf', () => {
    const c = conversation(
      chatGptConversation({
        id: 'c-1',
        title: 'Paris trip',
        nodes: [
          ...start,
          ['u1', 'sys', { role: 'user', text: 'Plan a day in Paris', time: 1_700_000_010.5 }],
          ['a1', 'u1', { role: 'assistant', text: 'Morning: the Louvre.', time: 1_700_000_012, model: 'gpt-4o' }],
        ],
      }),
    );
    expect(c).toMatchObject({
      source: 'chatgpt',
      sourceId: 'c-1',
      title: 'Paris trip',
      systemPrompt: null,
      activeLeafId: 'a1',
      branchPoints: 0,
    });
    expect(c.createdAt).toEqual(new Date(1_700_000_000_500));
    expect(c.messages).toEqual([
      {
        id: 'u1',
        parentId: null,
        role: 'user',
        content: 'Plan a day in Paris',
        reasoning: null,
        createdAt: new Date(1_700_000_010_500),
        model: null,
        status: 'complete',
      },
      {
        id: 'a1',
        parentId: 'u1',
        role: 'assistant',
        content: 'Morning: the Louvre.',
        reasoning: null,
        createdAt: new Date(1_700_000_012_000),
        model: 'gpt-4o',
        status: 'complete',
      },
    ]);
    expect(c.notes).toEqual([]);
  });

  it('keeps both branches of an edited question and of a regenerated answer, the recorded one active', () => {
    const c = conversation(
      chatGptConversation({
        id: 'c-2',
        currentNode: 'a2b',
        nodes: [
          ...start,
          ['u1', 'sys', { role: 'user', text: 'Hi', time: 10 }],
          ['a1', 'u1', { role: 'assistant', text: 'Hello', time: 11 }],
          // The question edited: a second user child of a1, newer.
          ['u2b', 'a1', { role: 'user', text: 'Tell me a joke (edited)', time: 30 }],
          ['u2', 'a1', { role: 'user', text: 'Tell me a joke', time: 20 }],
          ['a2', 'u2', { role: 'assistant', text: 'Joke one', time: 21 }],
          // The answer regenerated: a second assistant child of u2b.
          ['a2a', 'u2b', { role: 'assistant', text: 'Joke A', time: 31 }],
          ['a2b', 'u2b', { role: 'assistant', text: 'Joke B', time: 32 }],
        ],
      }),
    );
    expect(c.messages.map((m) => [m.id, m.parentId])).toEqual([
      ['u1', null],
      ['a1', 'u1'],
      ['u2', 'a1'],
      ['a2', 'u2'],
      ['u2b', 'a1'],
      ['a2a', 'u2b'],
      ['a2b', 'u2b'],
    ]);
    expect(c.activeLeafId).toBe('a2b');
    expect(c.branchPoints).toBe(2);
  });

  it('takes the custom instructions as the system prompt and re-parents below hidden nodes', () => {
    const c = conversation(
      chatGptConversation({
        id: 'c-3',
        nodes: [
          ...start,
          [
            'ctx',
            'sys',
            {
              role: 'user',
              hidden: true,
              content: {
                content_type: 'user_editable_context',
                user_profile: 'I am a chemist.',
                user_instructions: 'Answer briefly.',
              },
            },
          ],
          ['u1', 'ctx', { role: 'user', text: 'What is pH?' }],
          [
            'memo',
            'u1',
            {
              role: 'assistant',
              hidden: true,
              content: { content_type: 'model_editable_context', model_set_context: 'User is a chemist' },
            },
          ],
          ['a1', 'memo', { role: 'assistant', text: 'A log scale of acidity.' }],
        ],
      }),
    );
    expect(c.systemPrompt).toBe('I am a chemist.\n\nAnswer briefly.');
    expect(c.messages.map((m) => [m.id, m.parentId])).toEqual([
      ['u1', null],
      ['a1', 'u1'],
    ]);
    expect(c.dropped.hiddenMessages).toBe(1);
  });

  it('reads the older custom-instructions system message', () => {
    const c = conversation(
      chatGptConversation({
        id: 'c-3b',
        nodes: [
          ...start,
          [
            'ctx',
            'sys',
            {
              role: 'system',
              text: 'about you',
              metadata: {
                is_user_system_message: true,
                user_context_message_data: { about_user_message: 'Lives in Oslo', about_model_message: 'Be terse' },
              },
            },
          ],
          ['u1', 'ctx', { role: 'user', text: 'Weather?' }],
        ],
      }),
    );
    expect(c.systemPrompt).toBe('Lives in Oslo\n\nBe terse');
    expect(c.messages).toHaveLength(1);
  });

  it('keeps text and transcripts of multimodal parts and counts images and audio', () => {
    const image = {
      content_type: 'image_asset_pointer',
      asset_pointer: 'file-service://file-abc',
      size_bytes: 1000,
      width: 10,
      height: 10,
    };
    const c = conversation(
      chatGptConversation({
        id: 'c-4',
        nodes: [
          ...start,
          [
            'u1',
            'sys',
            { role: 'user', content: { content_type: 'multimodal_text', parts: [image, 'What is in this picture?'] } },
          ],
          ['a1', 'u1', { role: 'assistant', text: 'A cat.' }],
          ['u2', 'a1', { role: 'user', content: { content_type: 'multimodal_text', parts: [image, image] } }],
          ['a2', 'u2', { role: 'assistant', text: 'Two cats.' }],
          [
            'u3',
            'a2',
            {
              role: 'user',
              content: {
                content_type: 'multimodal_text',
                parts: [
                  { content_type: 'audio_transcription', text: 'spoken question' },
                  { content_type: 'audio_asset_pointer', asset_pointer: 'sediment://x' },
                ],
              },
            },
          ],
          [
            'u4',
            'u3',
            {
              role: 'user',
              text: 'see attached',
              metadata: { attachments: [{ id: 'f', name: 'report.pdf', mime_type: 'application/pdf' }] },
            },
          ],
        ],
      }),
    );
    expect(c.messages.map((m) => m.content)).toEqual([
      'What is in this picture?',
      'A cat.',
      '[not imported: 2 images]',
      'Two cats.',
      'spoken question',
      'see attached',
    ]);
    expect(c.dropped).toMatchObject({ images: 3, files: 2, other: 0 });
  });

  it('puts reasoning on the reply it precedes, ignores the "thought for" label', () => {
    const c = conversation(
      chatGptConversation({
        id: 'c-5',
        nodes: [
          ...start,
          ['u1', 'sys', { role: 'user', text: 'Is 91 prime?' }],
          [
            't1',
            'u1',
            {
              role: 'assistant',
              content: {
                content_type: 'thoughts',
                thoughts: [{ summary: 'Factoring', content: '91 = 7 x 13' }],
                source_analysis_msg_id: 'x',
              },
            },
          ],
          [
            'r1',
            't1',
            { role: 'assistant', content: { content_type: 'reasoning_recap', content: 'Thought for 4 seconds' } },
          ],
          ['a1', 'r1', { role: 'assistant', text: 'No: 7 x 13.', model: 'o3' }],
        ],
      }),
    );
    expect(c.messages.map((m) => [m.id, m.parentId, m.content, m.reasoning])).toEqual([
      ['u1', null, 'Is 91 prime?', null],
      ['a1', 'u1', 'No: 7 x 13.', 'Factoring\n\n91 = 7 x 13'],
    ]);
  });

  it('folds a code run into the reply and counts other tool traffic', () => {
    const c = conversation(
      chatGptConversation({
        id: 'c-6',
        nodes: [
          ...start,
          ['u1', 'sys', { role: 'user', text: 'Sum 1..10' }],
          [
            'code',
            'u1',
            {
              role: 'assistant',
              recipient: 'python',
              content: { content_type: 'code', language: 'unknown', text: 'sum(range(11))' },
            },
          ],
          ['out', 'code', { role: 'tool', content: { content_type: 'execution_output', text: '55' } }],
          ['a1', 'out', { role: 'assistant', text: 'It is 55.' }],
          ['u2', 'a1', { role: 'user', text: 'Search the news' }],
          [
            'call',
            'u2',
            {
              role: 'assistant',
              recipient: 'browser',
              content: { content_type: 'code', language: 'unknown', text: 'search("news")' },
            },
          ],
          [
            'web',
            'call',
            { role: 'tool', content: { content_type: 'tether_browsing_display', result: 'results…', summary: '' } },
          ],
          ['a2', 'web', { role: 'assistant', text: 'Here is the news.' }],
        ],
      }),
    );
    expect(c.messages.map((m) => [m.id, m.parentId])).toEqual([
      ['u1', null],
      ['a1', 'u1'],
      ['u2', 'a1'],
      ['a2', 'u2'],
    ]);
    expect(c.messages[1].content).toBe('```python\nsum(range(11))\n```\n\nOutput:\n```\n55\n```\n\nIt is 55.');
    // The browser call is code too and is kept; its result is counted.
    expect(c.messages[3].content).toContain('search("news")');
    expect(c.dropped.toolMessages).toBe(1);
  });

  it('keeps the text of an interrupted reply with a non-complete status', () => {
    const c = conversation(
      chatGptConversation({
        id: 'c-7',
        nodes: [
          ...start,
          ['u1', 'sys', { role: 'user', text: 'Write a poem' }],
          ['a1', 'u1', { role: 'assistant', text: 'Roses are', metadata: { finish_details: { type: 'interrupted' } } }],
          ['u2', 'a1', { role: 'user', text: 'Again' }],
          ['a2', 'u2', { role: 'assistant', text: 'Violets', status: 'in_progress' }],
        ],
      }),
    );
    expect(c.messages.map((m) => [m.content, m.status])).toEqual([
      ['Write a poem', 'complete'],
      ['Roses are', 'cancelled'],
      ['Again', 'complete'],
      ['Violets', 'cancelled'],
    ]);
  });

  describe('corrupted conversations are skipped with a reason', () => {
    const base = (nodes: GptNode[], currentNode?: string | null) =>
      chatGptConversation({ id: 'bad', title: 'Bad', nodes, currentNode });

    it('no mapping', () => {
      const raw = base(start);
      delete raw.mapping;
      expect(read(raw)).toEqual({
        kind: 'skipped',
        skipped: {
          index: 0,
          sourceId: 'bad',
          title: 'Bad',
          reason: 'no "mapping" (the message tree) in this conversation',
        },
      });
    });

    it('a cycle', () => {
      const nodes: GptNode[] = [
        ...start,
        ['u1', 'sys', { role: 'user', text: 'a' }],
        ['x', 'y', { role: 'user', text: 'x' }],
        ['y', 'x', { role: 'assistant', text: 'y' }],
      ];
      expect(reason(base(nodes, 'u1'))).toMatch(/^a cycle: the parents of node "[xy]" never reach a first message$/);
    });

    it('a node that is its own parent', () => {
      expect(reason(base([...start, ['u1', 'u1', { role: 'user', text: 'a' }]]))).toMatch(/^a cycle/);
    });

    it('a dangling parent', () => {
      expect(reason(base([...start, ['u1', 'gone', { role: 'user', text: 'a' }]]))).toBe(
        'node "u1" has parent "gone", which is not in the conversation',
      );
    });

    it('a node id twice', () => {
      const raw = base([
        ...start,
        ['u1', 'sys', { role: 'user', text: 'a' }],
        ['u2', 'u1', { role: 'assistant', text: 'b' }],
      ]);
      (raw.mapping as Record<string, { id: string }>).u2.id = 'u1';
      expect(reason(raw)).toBe('node id "u1" appears twice');
    });

    it('no messages at all', () => {
      expect(reason(base(start))).toBe('no user or assistant messages');
    });

    it('too deep and too many nodes', () => {
      const nodes: GptNode[] = [...start];
      for (let i = 0; i < 30; i++)
        nodes.push([`m${i}`, i === 0 ? 'sys' : `m${i - 1}`, { role: i % 2 ? 'assistant' : 'user', text: `${i}` }]);
      expect(reason(base(nodes), { ...DEFAULT_ARCHIVE_LIMITS, maxDepth: 29 })).toBe(
        'too deep (more than 29 messages on one path)',
      );
      expect(reason(base(nodes), { ...DEFAULT_ARCHIVE_LIMITS, maxNodes: 31 })).toBe(
        'too many nodes (32, the limit is 31)',
      );
      expect(read(base(nodes), { ...DEFAULT_ARCHIVE_LIMITS, maxDepth: 30, maxNodes: 32 }).kind).toBe('conversation');
    });
  });

  describe('the active leaf', () => {
    const nodes: GptNode[] = [
      ...start,
      ['u1', 'sys', { role: 'user', text: 'q', time: 1 }],
      ['a1', 'u1', { role: 'assistant', text: 'old', time: 2 }],
      ['a2', 'u1', { role: 'assistant', text: 'new', time: 3 }],
      ['a1x', 'a1', { role: 'tool', content: { content_type: 'tether_quote', text: 'q' } }],
    ];

    it('a missing current_node falls back to the newest leaf, noted', () => {
      const c = conversation(chatGptConversation({ id: 'l', nodes, currentNode: 'nowhere' }));
      expect(c.activeLeafId).toBe('a2');
      expect(c.notes).toEqual(['the recorded active message "nowhere" does not exist: the newest leaf is active']);
    });

    it('a hidden current_node maps to its nearest visible ancestor', () => {
      const c = conversation(chatGptConversation({ id: 'l', nodes, currentNode: 'a1x' }));
      expect(c.activeLeafId).toBe('a1');
      expect(c.notes).toEqual([]);
    });

    it('an inner current_node goes down its newest branch', () => {
      const c = conversation(chatGptConversation({ id: 'l', nodes, currentNode: 'u1' }));
      expect(c.activeLeafId).toBe('a2');
      expect(c.notes).toHaveLength(1);
    });
  });

  it('reads a very long conversation without recursion (explicit stack)', () => {
    const nodes: GptNode[] = [...start];
    for (let i = 0; i < 9_000; i++)
      nodes.push([`m${i}`, i === 0 ? 'sys' : `m${i - 1}`, { role: i % 2 ? 'assistant' : 'user', text: `${i}` }]);
    const c = conversation(chatGptConversation({ id: 'long', nodes }));
    expect(c.messages).toHaveLength(9_000);
    expect(c.activeLeafId).toBe('m8999');
  });
});

import { archiveRows } from './archive-rows.js';
import { type ArchiveConversation, type ArchiveMessage, noDroppedParts } from './archive.types.js';

const at = (s: number) => new Date(1_700_000_000_000 + s * 1000);
const msg = (
  id: string,
  parentId: string | null,
  role: 'user' | 'assistant',
  extra: Partial<ArchiveMessage> = {},
): ArchiveMessage => ({
  id,
  parentId,
  role,
  content: id,
  reasoning: null,
  createdAt: at(id.length),
  model: role === 'assistant' ? 'gpt-4o' : null,
  status: 'complete',
  ...extra,
});

function conversation(
  messages: ArchiveMessage[],
  activeLeafId: string,
  extra: Partial<ArchiveConversation> = {},
): ArchiveConversation {
  return {
    source: 'chatgpt',
    sourceId: 's',
    title: 'T',
    createdAt: at(0),
    updatedAt: at(100),
    systemPrompt: 'Be brief.',
    messages,
    activeLeafId,
    branchPoints: 1,
    dropped: noDroppedParts(),
    notes: [],
    ...extra,
  };
}

describe('archiveRows', () => {
  const messages = [
    msg('q', null, 'user'),
    msg('a', 'q', 'assistant'),
    msg('a2', 'q', 'assistant', { status: 'failed' }),
    msg('q2', 'a2', 'user'),
  ];

  it('maps parents to the new ids, numbers parents first, and puts the path to the active leaf on the path', () => {
    const rows = archiveRows(conversation(messages, 'q2'), 'alice', at(500));
    const byContent = new Map(rows.messages.map((m) => [m.content, m]));
    expect(rows.messages.map((m) => [m.content, m.seq, m.onPath])).toEqual([
      ['q', 1, true],
      ['a', 2, false],
      ['a2', 3, true],
      ['q2', 4, true],
    ]);
    expect(byContent.get('q2')!.parentId).toBe(byContent.get('a2')!.id);
    expect(byContent.get('q')!.parentId).toBeNull();
    expect(new Set(rows.messages.map((m) => m.conversationId))).toEqual(new Set([rows.conversation.id]));
    expect(byContent.get('a2')).toMatchObject({
      status: 'failed',
      errorCode: 'model_unavailable',
      errorMessage: 'The reply had failed in ChatGPT',
    });
    expect(rows.conversation).toMatchObject({
      actor: 'alice',
      title: 'T',
      lastSeq: 4,
      createdAt: at(0),
      updatedAt: at(100),
      agentId: null,
    });
    expect(rows.thread).toMatchObject({ name: 'main', systemPrompt: 'Be brief.' });
  });

  it('keeps the source’s last activity as the conversation’s updatedAt (its latest message if later, never after the import); the thread records the import', () => {
    const rows = archiveRows(conversation(messages, 'q2'), 'alice', at(500));
    expect(rows.conversation.updatedAt).toEqual(at(100));
    expect(rows.thread).toMatchObject({ createdAt: at(0), updatedAt: at(500) });
    const late = archiveRows(
      conversation([msg('q', null, 'user', { createdAt: at(300) })], 'q', { updatedAt: at(5) }),
      'alice',
      at(500),
    );
    expect(late.conversation.updatedAt).toEqual(at(300));
    const future = archiveRows(conversation(messages, 'q2', { updatedAt: at(9_999) }), 'alice', at(500));
    expect(future.conversation.updatedAt).toEqual(at(500));
  });

  it('gets the other branch on the path when it is the active one, and cuts long titles and models', () => {
    const rows = archiveRows(conversation(messages, 'a', { title: 'x'.repeat(100) }), 'alice', at(500));
    expect(rows.messages.map((m) => m.onPath)).toEqual([true, true, false, false]);
    expect(rows.conversation.title).toHaveLength(60);
    const long = archiveRows(
      conversation([msg('q', null, 'user'), msg('a', 'q', 'assistant', { model: 'm'.repeat(300) })], 'a'),
      'alice',
      at(1),
    );
    expect(long.messages[1].model).toHaveLength(200);
  });
});

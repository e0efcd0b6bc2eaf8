import { Test, type TestingModule } from '@nestjs/testing';
import type { EntityManager } from 'typeorm';
import { AgentsModule } from '../agents/agents.module.js';
import { loadConfig } from '../config/app-config.js';
import { ConfigModule } from '../config/config.module.js';
import { DatabaseModule } from '../database/database.module.js';
import { DatabaseService } from '../database/database.service.js';
import { ENTITIES } from '../entities.js';
import type { Conversation } from './conversation.entity.js';
import { ConversationsModule } from './conversations.module.js';
import { ConversationsRepository } from './conversations.repository.js';
import { MessageTreeRepository } from './message-tree.repository.js';
import { MessagesRepository } from './messages.repository.js';
import { SummariesRepository } from './summaries.repository.js';
import { Summary } from './summary.entity.js';
import { ThreadsRepository } from './threads.repository.js';
import { TurnReadsRepository } from './turn-reads.repository.js';

/**
 * The turn's combined reads answer exactly what the separate reads answer, on the states that
 * decide them: an empty thread, a thread with a summary of its active path, and one whose
 * summary stands for a branch the path has left; another actor's conversation reads as none.
 */
describe('TurnReadsRepository', () => {
  let module: TestingModule;
  let db: DatabaseService;
  let reads: TurnReadsRepository;
  let conversations: ConversationsRepository;
  let messages: MessagesRepository;
  let threads: ThreadsRepository;
  let summaries: SummariesRepository;
  let tree: MessageTreeRepository;

  beforeEach(async () => {
    const config = loadConfig({ DATABASE_URL: 'sqlite::memory:' });
    module = await Test.createTestingModule({
      imports: [
        ConfigModule.forRoot(config),
        DatabaseModule.forRoot(config, ENTITIES),
        ConversationsModule,
        AgentsModule,
      ],
    }).compile();
    await module.init();
    db = module.get(DatabaseService);
    reads = module.get(TurnReadsRepository);
    conversations = module.get(ConversationsRepository);
    messages = module.get(MessagesRepository);
    threads = module.get(ThreadsRepository);
    summaries = module.get(SummariesRepository);
    tree = module.get(MessageTreeRepository);
  });
  afterEach(() => module.close());

  /** What the separate reads answer for the actor's conversation and thread. */
  const separately = async (em: EntityManager, actor: string, id: string, thread: string) => {
    const conversation = await conversations.lockOwned(em, actor, id);
    if (!conversation) return null;
    const head = {
      leaf: await messages.lastMessage(em, id, thread),
      thread: await threads.findThread(em, id, thread),
      summary: await summaries.findSummary(em, id, thread),
    };
    return { conversation, head };
  };
  const expectSameReads = (id: string, thread: string) =>
    db.transaction(async (em) => {
      for (const actor of ['alice', 'bob']) {
        const expected = await separately(em, actor, id, thread);
        expect(await reads.ownedWithHead(em, actor, id, thread)).toEqual(expected);
        if (expected) expect(await reads.threadHead(em, { id, actor }, thread)).toEqual(expected.head);
      }
    });
  const summarize = (conversation: Conversation, thread: string, coversSeq: number) =>
    db.transaction((em) =>
      summaries.replaceSummaryIf(
        em,
        Object.assign(new Summary(), {
          conversationId: conversation.id,
          actor: conversation.actor,
          thread,
          content: 'so far',
          coversSeq,
          tokens: 3,
          model: 'm',
          promptTokens: 0,
          completionTokens: 0,
          updatedAt: new Date(),
        }),
        0,
      ),
    );

  it('answers what the separate reads answer, empty, summarized and after a branch', async () => {
    const now = new Date();
    const conversation = await db.transaction((em) => conversations.insertConversation(em, 'alice', 'Title', now));
    await expectSameReads(conversation.id, 'main');

    const appended = await db.transaction(async (em) => {
      const fresh = (await conversations.lockOwned(em, 'alice', conversation.id))!;
      await threads.upsertThread(em, fresh, 'main', 'Be brief', now);
      let parentId: string | null = null;
      const rows = [];
      for (const [role, content] of [
        ['user', 'one'],
        ['assistant', 'two'],
        ['user', 'three'],
        ['assistant', 'four'],
      ] as const) {
        const [row] = await messages.appendMessages(em, fresh, [{ role, content, thread: 'main', parentId }], now);
        parentId = row.id;
        rows.push(row);
      }
      return rows;
    });
    await summarize(conversation, 'main', appended[1].seq);
    await expectSameReads(conversation.id, 'main');
    await expectSameReads(conversation.id, 'other');
    const summaryOfMain = () =>
      db.transaction(async (em) => (await reads.threadHead(em, conversation, 'main')).summary?.coversSeq ?? null);
    expect(await summaryOfMain()).toBe(appended[1].seq);

    // A branch from the first question: the summary's last message leaves the active path, so it stands for nothing.
    await db.transaction((em) => tree.leavePathBelow(em, conversation.id, 'main', appended[0].seq));
    expect(await summaryOfMain()).toBeNull();
    await expectSameReads(conversation.id, 'main');
    await expectSameReads('no-such-conversation', 'main');
  });
});

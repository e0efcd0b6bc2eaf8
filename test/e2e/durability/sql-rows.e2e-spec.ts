import { randomUUID } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import { Conversation } from '../../../src/conversations/conversation.entity.js';
import { Message } from '../../../src/conversations/message.entity.js';
import { Thread } from '../../../src/conversations/thread.entity.js';
import { EntityRows, sql } from '../../../src/database/sql.js';
import { useApp } from '../../support/app-fixture.js';
import type { TestApp } from '../../support/test-app.js';

/**
 * The chat turn's statements bypass TypeORM's builders (src/database/sql.ts): what they write
 * must read back identically through TypeORM, and the other way round, on both databases.
 */
describe('constant SQL on the turn path reads and writes as TypeORM does', () => {
  const fixture = useApp();
  let t: TestApp;
  let ds: DataSource;

  beforeAll(async () => {
    t = fixture.app;
    ds = t.app.get(DataSource);
  });

  const conversation = (overrides: Partial<Conversation> = {}): Conversation =>
    Object.assign(new Conversation(), {
      id: randomUUID(),
      actor: 'api:alice',
      title: 'Ünïcode — "quotes" and \'apostrophes\' ?',
      agentId: null,
      state: { nested: { list: [1, 'two', null], emoji: '🦊' }, flag: true },
      archived: true,
      pinned: false,
      memory: false,
      metadata: { team: 'blue', note: 'a ? $1' },
      model: 'gpt-test ? $1',
      importSource: null,
      lastSeq: 7,
      createdAt: new Date('2026-01-02T03:04:05.678Z'),
      updatedAt: new Date('2026-01-02T03:04:06.001Z'),
      ...overrides,
    });

  const message = (conversationId: string, seq: number): Message =>
    Object.assign(new Message(), {
      id: randomUUID(),
      conversationId,
      actor: 'api:alice',
      parentId: null,
      onPath: true,
      pinned: true,
      memoryIds: ['3f6c1a52-8a0e-4e57-9b1c-2d4e6f8a0b1c'],
      recalledMessageIds: ['5b7d2c63-9b1f-4f68-8c2d-3e5f7a9b1c2d'],
      functionCalls: [{ callId: 'call_1', name: 'lookup', arguments: '{"q":"a ? $1"}' }],
      callId: null,
      thread: 'side',
      seq,
      role: 'assistant',
      content: 'line one\nline two ? $1',
      tokens: 12,
      status: 'failed',
      model: 'gpt-test',
      promptTokens: 100,
      completionTokens: 20,
      versions: [
        {
          content: 'old',
          status: 'complete',
          model: null,
          promptTokens: null,
          completionTokens: null,
          error: null,
          createdAt: '2026-01-01T00:00:00.000Z',
        },
      ],
      toolCalls: [{ name: 'update_state', arguments: '{"a":1}', result: 'ok' }],
      reasoning: 'thought ? $1\nand more',
      reasoningMs: 1234,
      errorCode: 'model_unavailable',
      errorMessage: 'upstream',
      leaseUntil: new Date('2026-01-02T03:05:00.250Z'),
      cancelRequestedAt: null,
      createdAt: new Date('2026-01-02T03:04:07.999Z'),
    });

  const inTransaction = <T>(work: (em: EntityManager) => Promise<T>) => ds.transaction(work);

  it('TypeORM writes, constant SQL reads: the same entities', async () => {
    const c = conversation();
    const m = message(c.id, 1);
    await ds.manager.insert(Conversation, c);
    // A copy: on PostgreSQL TypeORM writes the defaults RETURNING gave back onto the entity, untransformed.
    await ds.manager.insert(Message, Object.assign(new Message(), m));
    const viaSql = await EntityRows.of(ds.manager, Conversation).findOne(ds.manager, '"id" = ?', [c.id]);
    expect(viaSql).toEqual(await ds.manager.findOneByOrFail(Conversation, { id: c.id }));
    expect(viaSql).toBeInstanceOf(Conversation);
    const messageViaSql = await EntityRows.of(ds.manager, Message).findOne(ds.manager, '"id" = ?', [m.id]);
    expect(messageViaSql).toEqual(await ds.manager.findOneByOrFail(Message, { id: m.id }));
    expect(messageViaSql).toEqual(m);
  });

  it('constant SQL writes, TypeORM reads: the same entities, nulls and all', async () => {
    const c = conversation({ archived: false, pinned: true, state: {}, metadata: null });
    const m = Object.assign(message(c.id, 1), {
      versions: null,
      toolCalls: null,
      leaseUntil: null,
      model: null,
      tokens: null,
    });
    await inTransaction(async (em) => {
      await EntityRows.of(em, Conversation).insert(em, [c]);
      await EntityRows.of(em, Message).insert(em, [m, message(c.id, 2)]);
    });
    expect(await ds.manager.findOneByOrFail(Conversation, { id: c.id })).toEqual(c);
    expect(await ds.manager.findOneByOrFail(Message, { id: m.id })).toEqual(m);
    expect(await ds.manager.countBy(Message, { conversationId: c.id })).toBe(2);
  });

  it('updates only the given properties and counts the rows it changed', async () => {
    const c = conversation();
    const m = message(c.id, 1);
    await ds.manager.insert(Conversation, c);
    // A copy: on PostgreSQL TypeORM writes the defaults RETURNING gave back onto the entity, untransformed.
    await ds.manager.insert(Message, Object.assign(new Message(), m));
    const changes = {
      content: 'new',
      versions: null,
      cancelRequestedAt: new Date('2026-02-03T04:05:06.789Z'),
      errorCode: null,
    };
    const changed = await inTransaction((em) => EntityRows.of(em, Message).update(em, changes, '"id" = ?', [m.id]));
    expect(changed).toBe(1);
    expect(await ds.manager.findOneByOrFail(Message, { id: m.id })).toEqual({ ...m, ...changes });
    const none = await inTransaction((em) =>
      EntityRows.of(em, Message).update(em, { content: 'x' }, '"id" = ?', [randomUUID()]),
    );
    expect(none).toBe(0);
  });

  it('returns the rows of UPDATE ... RETURNING, and the same SQL text serves both databases', async () => {
    const c = conversation({ lastSeq: 3 });
    await ds.manager.insert(Conversation, c);
    const result = await inTransaction((em) =>
      sql<{ last_seq: number }>(
        em,
        'UPDATE "conversations" SET "last_seq" = "last_seq" + ? WHERE "id" = ? RETURNING "last_seq"',
        [2, c.id],
      ),
    );
    expect(result.rows.map((r) => Number(r.last_seq))).toEqual([5]);
    expect(result.affected).toBe(1);
    const read = await sql<{ n: number }>(ds.manager, 'SELECT COUNT(*) AS "n" FROM "conversations" WHERE "id" = ?', [
      c.id,
    ]);
    expect(Number(read.rows[0].n)).toBe(1);
  });

  it('hydrates composite-key rows (threads) like TypeORM', async () => {
    const c = conversation();
    await ds.manager.insert(Conversation, c);
    const thread = Object.assign(new Thread(), {
      conversationId: c.id,
      actor: c.actor,
      name: 'research',
      systemPrompt: null,
      createdAt: new Date('2026-03-01T00:00:00.001Z'),
      updatedAt: new Date('2026-03-01T00:00:00.002Z'),
    });
    await inTransaction((em) => EntityRows.of(em, Thread).insert(em, [thread]));
    const viaSql = await EntityRows.of(ds.manager, Thread).findOne(ds.manager, '"conversation_id" = ? AND "name" = ?', [
      c.id,
      'research',
    ]);
    expect(viaSql).toEqual(await ds.manager.findOneByOrFail(Thread, { conversationId: c.id, name: 'research' }));
    expect(viaSql).toEqual(thread);
  });
});

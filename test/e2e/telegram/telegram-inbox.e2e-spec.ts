import { DataSource } from 'typeorm';
import { DatabaseService } from '../../../src/database/database.service.js';
import { InboxFullError, UpdateTooLargeError } from '../../../src/telegram-inbox/telegram-inbox.errors.js';
import {
  MAX_ATTEMPTS,
  MAX_PENDING_UPDATES,
  MAX_UPDATE_BYTES,
  TELEGRAM_UPDATE_TTL_MS,
  TelegramInboxService,
} from '../../../src/telegram-inbox/telegram-inbox.service.js';
import { TelegramUpdate } from '../../../src/telegram-inbox/telegram-update.entity.js';
import { useApp } from '../../support/app-fixture.js';
import { DIALECT, type TestApp } from '../../support/test-app.js';

/**
 * The pending Telegram updates on a real database, with several inbox services on one
 * database standing for several instances.
 */
describe('Telegram inbox: acknowledged updates kept until answered', () => {
  const fixture = useApp();
  let t: TestApp;
  let nextBot = 1;
  beforeAll(() => (t = fixture.app));

  /** Another instance of the service (a process of its own). */
  const instance = () => new TelegramInboxService(t.app.get(DatabaseService), t.config);
  const repo = () => t.app.get(DataSource).getRepository(TelegramUpdate);
  /** The leases of a bot's pending updates run out (their instance stopped renewing them). */
  const expire = (botId: string) => repo().update({ botId }, { leaseUntil: new Date(Date.now() - 60_000) });
  const payload = (updateId: number) => JSON.stringify({ update_id: updateId, message: { text: `text ${updateId}` } });

  it('records an update once: a second record, by any instance, is known', async () => {
    const bot = `bot-${nextBot++}`;
    const [a, b] = [instance(), instance()];
    expect(await a.record(bot, 1, '42', payload(1))).toBe('new');
    expect(await a.record(bot, 1, '42', payload(1))).toBe('known');
    expect(await b.record(bot, 1, '42', payload(1))).toBe('known');
    // Update ids are per bot.
    expect(await b.record(`bot-${nextBot++}`, 1, '42', payload(1))).toBe('new');
    const concurrent = await Promise.all([a.record(bot, 2, '42', payload(2)), b.record(bot, 2, '42', payload(2))]);
    expect(concurrent.sort()).toEqual(['known', 'new']);
  });

  it('refuses an update above the size bound, and any once the pending bound is reached', async () => {
    const bot = `bot-${nextBot++}`;
    const inbox = instance();
    await expect(inbox.record(bot, 1, '42', 'x'.repeat(MAX_UPDATE_BYTES + 1))).rejects.toBeInstanceOf(
      UpdateTooLargeError,
    );
    const now = new Date();
    const rows = Array.from({ length: MAX_PENDING_UPDATES }, (_, i) => ({
      botId: bot,
      updateId: 10 + i,
      chatKey: '42',
      payload: '{}',
      state: 'pending' as const,
      attempts: 1,
      owner: 'elsewhere',
      leaseUntil: now,
      conversationId: null,
      replyId: null,
      createdAt: now,
    }));
    for (let i = 0; i < rows.length; i += 500) await repo().insert(rows.slice(i, i + 500));
    await expect(inbox.record(bot, 1, '42', payload(1))).rejects.toBeInstanceOf(InboxFullError);
    // An answered one makes room.
    await inbox.markHandled(bot, 10);
    expect(await inbox.record(bot, 1, '42', payload(1))).toBe('new');
  });

  it('gives each pending update of a stopped instance to exactly one other instance, oldest first', async () => {
    const bot = `bot-${nextBot++}`;
    const dead = instance();
    for (let id = 1; id <= 6; id++) await dead.record(bot, id, String(id % 2), payload(id));
    const [b, c] = [instance(), instance()];
    if (DIALECT === 'postgres') {
      // Several instances share PostgreSQL: a live lease is left to its holder.
      expect((await b.takeOver(bot, 100)).taken).toEqual([]);
      await expire(bot);
    }
    const [fromB, fromC] = await Promise.all([b.takeOver(bot, 100), c.takeOver(bot, 100)]);
    const ids = [...fromB.taken, ...fromC.taken].map((u) => u.updateId);
    expect(ids.sort()).toEqual([1, 2, 3, 4, 5, 6]);
    for (const taken of [fromB.taken, fromC.taken]) {
      const own = taken.map((u) => u.updateId);
      expect(own).toEqual([...own].sort());
    }
    expect(fromB.taken.find((u) => u.updateId === 3) ?? fromC.taken.find((u) => u.updateId === 3)).toEqual({
      updateId: 3,
      chatKey: '1',
      payload: payload(3),
    });
    // Held (and renewed) by their new owners: nobody else takes them while they live.
    await b.renewLeases(bot);
    await c.renewLeases(bot);
    if (DIALECT === 'postgres') expect((await instance().takeOver(bot, 100)).taken).toEqual([]);
    // The bound is honoured.
    await expire(bot);
    expect((await instance().takeOver(bot, 2)).taken.map((u) => u.updateId)).toEqual([1, 2]);
  });

  it('never hands out an answered update, and drops its content', async () => {
    const bot = `bot-${nextBot++}`;
    const inbox = instance();
    await inbox.record(bot, 1, '42', payload(1));
    await inbox.attachTurn(bot, 1, { conversationId: 'c'.repeat(36), replyId: 'r'.repeat(36) });
    expect(await inbox.turnOf(bot, 1)).toEqual({ conversationId: 'c'.repeat(36), replyId: 'r'.repeat(36) });
    await inbox.markHandled(bot, 1);
    await expire(bot);
    expect((await instance().takeOver(bot, 100)).taken).toEqual([]);
    expect(await repo().findOneByOrFail({ botId: bot, updateId: 1 })).toMatchObject({
      state: 'handled',
      payload: null,
    });
    // Still recognised when Telegram sends it again.
    expect(await instance().record(bot, 1, '42', payload(1))).toBe('known');
  });

  it(`gives up an update whose handling was interrupted ${MAX_ATTEMPTS} times`, async () => {
    const bot = `bot-${nextBot++}`;
    await instance().record(bot, 1, '42', payload(1));
    for (let attempt = 2; attempt <= MAX_ATTEMPTS; attempt++) {
      await expire(bot);
      expect((await instance().takeOver(bot, 100)).taken).toHaveLength(1);
    }
    await expire(bot);
    expect(await instance().takeOver(bot, 100)).toEqual({ taken: [], givenUp: [1] });
    expect(await repo().findOneByOrFail({ botId: bot, updateId: 1 })).toMatchObject({
      state: 'handled',
      payload: null,
      attempts: MAX_ATTEMPTS,
    });
  });

  it('purges records older than a day, counting those never answered', async () => {
    const bot = `bot-${nextBot++}`;
    const inbox = instance();
    for (const id of [1, 2, 3]) await inbox.record(bot, id, '42', payload(id));
    await inbox.markHandled(bot, 1);
    const old = new Date(Date.now() - TELEGRAM_UPDATE_TTL_MS - 60_000);
    await repo().update({ botId: bot, updateId: 1 }, { createdAt: old });
    await repo().update({ botId: bot, updateId: 2 }, { createdAt: old });
    const purged = await inbox.purgeExpired();
    expect(purged.pending).toBe(1);
    expect(purged.deleted).toBeGreaterThanOrEqual(2);
    expect((await repo().findBy({ botId: bot })).map((r) => r.updateId)).toEqual([3]);
  });
});

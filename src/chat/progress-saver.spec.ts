import { loadConfig } from '../config/app-config.js';
import { MAX_TEXTS_PER_TICK, ProgressSaver } from './progress-saver.js';
import type { ProgressSave } from '../conversations/progress-save.js';
import { ReplyProgress } from './reply-progress.js';
import type { ReplyStore } from './reply-store.js';
import { until } from '../../test/support/until.js';

/** A turn store that records the saves asked of it; `refuse` holds the ids a stop was requested for. */
function fakeStore() {
  const store = {
    saves: [] as ProgressSave[][],
    checks: [] as string[][],
    refuse: new Set<string>(),
    gate: null as Promise<void> | null,
    /** The saves asked in one synchronous run: one tick's. */
    ticks: [] as ProgressSave[][],
    inTick: false,
    async saveProgress(saves: readonly ProgressSave[]): Promise<Set<string>> {
      store.saves.push([...saves]);
      if (!store.inTick) {
        store.inTick = true;
        store.ticks.push([]);
        queueMicrotask(() => (store.inTick = false));
      }
      store.ticks.at(-1)!.push(...saves);
      if (store.gate) await store.gate;
      return new Set(saves.map((s) => s.id).filter((id) => !store.refuse.has(id)));
    },
    async cancelRequested(replies: ReadonlyArray<{ id: string }>): Promise<Set<string>> {
      const ids = replies.map((r) => r.id);
      store.checks.push(ids);
      return new Set(ids.filter((id) => store.refuse.has(id)));
    },
  };
  return store;
}

describe('ProgressSaver', () => {
  const config = loadConfig({ STREAM_FLUSH_MS: '10', REPLY_LEASE_MS: '60000' });
  let store: ReturnType<typeof fakeStore>;
  let saver: ProgressSaver;
  beforeEach(() => {
    store = fakeStore();
    saver = new ProgressSaver(store as unknown as ReplyStore, config);
  });
  afterEach(() => saver.onModuleDestroy());

  const reply = (id: string, onCancel: () => void = () => undefined) => {
    const progress = new ReplyProgress(saver, id, 'alice', onCancel);
    progress.start();
    return progress;
  };

  it('saves the new text of every live reply in one call per tick, and nothing for a reply with nothing new', async () => {
    const replies = ['a', 'b', 'c'].map((id) => reply(id));
    replies.forEach((r, i) => r.append(`text ${i}`));
    await until(() => store.saves.length >= 1);
    // The lease (a minute) is not due: the saves leave it as it is.
    expect(store.saves[0]).toEqual([
      { id: 'a', actor: 'alice', content: 'text 0', renewLease: false },
      { id: 'b', actor: 'alice', content: 'text 1', renewLease: false },
      { id: 'c', actor: 'alice', content: 'text 2', renewLease: false },
    ]);
    // Nothing new since: the next ticks only ask, together, whether a stop was requested.
    await until(() => store.checks.length >= 1);
    expect(store.checks[0]).toEqual(['a', 'b', 'c']);
    expect(store.saves).toHaveLength(1);
    await Promise.all(replies.map((r) => r.stop()));
  });

  it('never renews the lease of a reply that was cut or stopped, though its text is still saved', () => {
    const progress = new ReplyProgress(saver, 'a', 'alice', () => undefined);
    progress.append('text');
    const later = Date.now() + 60_000;
    expect(progress.pending(later, 1000)).toEqual({ id: 'a', actor: 'alice', content: 'text', renewLease: true });
    progress.halt();
    expect(progress.pending(later, 1000)).toEqual({ id: 'a', actor: 'alice', content: 'text', renewLease: false });
    progress.saved({ id: 'a', actor: 'alice', content: 'text', renewLease: false }, later);
    expect(progress.pending(later, 1000)).toBeNull();
  });

  it('renews a lease when a third of REPLY_LEASE_MS has passed since its last renewal, not with every save', async () => {
    const short = new ProgressSaver(
      store as unknown as ReplyStore,
      loadConfig({ STREAM_FLUSH_MS: '10', REPLY_LEASE_MS: '1000' }),
    );
    try {
      const progress = new ReplyProgress(short, 'a', 'alice', () => undefined);
      progress.start();
      // A new piece every tick: every tick saves text, about 33 of them until the lease is due.
      const feeding = setInterval(() => progress.append('x'), 5);
      await until(() => store.saves.some((batch) => batch.some((s) => s.renewLease)), 10_000);
      clearInterval(feeding);
      const saves = store.saves.flat();
      const renewedAt = saves.findIndex((s) => s.renewLease);
      expect(saves.filter((s) => s.content !== undefined).length).toBeGreaterThan(renewedAt);
      expect(renewedAt).toBeGreaterThan(0);
      expect(saves[renewedAt].content).toBeDefined();
      await progress.stop();
    } finally {
      short.onModuleDestroy();
    }
  });

  it('splits a tick of many replies into units of 100 (one commit on SQLite, one statement each on PostgreSQL)', async () => {
    const replies = Array.from({ length: 250 }, (_, i) => reply(`r${i}`));
    replies.forEach((r) => r.append('x'));
    await until(() => store.saves.length >= 3);
    expect(store.saves.slice(0, 3).map((s) => s.length)).toEqual([100, 100, 50]);
    await Promise.all(replies.map((r) => r.stop()));
  });

  it('saves at most MAX_TEXTS_PER_TICK texts a tick, those saved longest ago first, so each reply waits a bounded number of ticks', async () => {
    const replies = Array.from({ length: 1200 }, (_, i) => reply(`r${i}`));
    const texts = (tick: ProgressSave[]) => tick.filter((s) => s.content !== undefined).map((s) => s.id);
    replies.forEach((r) => r.append('x'));
    await until(() => store.ticks.length >= 3);
    expect(store.ticks.slice(0, 3).map((t) => texts(t).length)).toEqual([MAX_TEXTS_PER_TICK, MAX_TEXTS_PER_TICK, 200]);
    // Each reply once, in order: the first ticks' replies do not come round again before the others.
    expect(store.ticks.slice(0, 3).flatMap(texts)).toEqual(replies.map((r) => r.replyId));
    // New text for all: the line goes on from the replies saved longest ago.
    const seen = store.ticks.length;
    replies.forEach((r) => r.append('y'));
    await until(() => store.ticks.length >= seen + 1);
    expect(texts(store.ticks[seen])[0]).toBe('r0');
    await Promise.all(replies.map((r) => r.stop()));
  });

  it('stops a reply whose save was refused (a stop was requested), or that a check finds asked to stop', async () => {
    const stopped: string[] = [];
    const saving = reply('saving', () => stopped.push('saving'));
    const idle = reply('idle', () => stopped.push('idle'));
    store.refuse.add('saving').add('idle');
    saving.append('some text');
    await until(() => stopped.includes('saving') && stopped.includes('idle'));
    await Promise.all([saving.stop(), idle.stop()]);
  });

  it('lets a stopping reply wait for its save in flight, so the final save is never overtaken', async () => {
    let open!: () => void;
    store.gate = new Promise<void>((resolve) => (open = resolve));
    const progress = reply('a');
    progress.append('partial');
    await until(() => store.saves.length === 1);
    let stopped = false;
    const stopping = progress.stop().then(() => (stopped = true));
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(stopped).toBe(false);
    open();
    await stopping;
    // Stopped: no tick saves it again.
    const saves = store.saves.length;
    progress.append(' more');
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(store.saves).toHaveLength(saves);
  });
});

import { ChatQueues } from './chat-queues.js';

/** A job that records its start and end and finishes when released. */
function gate(log: string[], name: string) {
  let release!: () => void;
  const done = new Promise<void>((resolve) => (release = resolve));
  return {
    job: async () => {
      log.push(`start ${name}`);
      await done;
      log.push(`end ${name}`);
    },
    release: () => release(),
  };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('ChatQueues', () => {
  it("runs a chat's jobs one at a time in order, and other chats alongside", async () => {
    const queues = new ChatQueues();
    const log: string[] = [];
    const [a1, a2, b1] = [gate(log, 'a1'), gate(log, 'a2'), gate(log, 'b1')];
    queues.enqueue(1, a1.job);
    queues.enqueue(1, a2.job);
    queues.enqueue(2, b1.job);
    await tick();
    expect(log).toEqual(['start a1', 'start b1']);
    b1.release();
    a2.release();
    await tick();
    expect(log).toEqual(['start a1', 'start b1', 'end b1']);
    a1.release();
    expect(await queues.drain(5_000)).toBe(true);
    expect(log).toEqual(['start a1', 'start b1', 'end b1', 'end a1', 'start a2', 'end a2']);
    expect(queues.size).toBe(0);
  });

  it('goes on after a failing job', async () => {
    const queues = new ChatQueues();
    const log: string[] = [];
    queues.enqueue(1, async () => {
      throw new Error('boom');
    });
    queues.enqueue(1, async () => void log.push('next'));
    expect(await queues.drain(5_000)).toBe(true);
    expect(log).toEqual(['next']);
  });

  it('stops waiting when the drain time is up', async () => {
    const queues = new ChatQueues();
    const stuck = gate([], 'stuck');
    queues.enqueue(1, stuck.job);
    expect(await queues.drain(20)).toBe(false);
    expect(queues.size).toBe(1);
    stuck.release();
    expect(await queues.drain(5_000)).toBe(true);
  });
});

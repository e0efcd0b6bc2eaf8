import { parseLsn, ReplicaFreshness } from './replica-freshness.js';

describe('ReplicaFreshness', () => {
  it('orders WAL positions like PostgreSQL does', () => {
    expect(parseLsn('0/3015FF0')).toBe(0x3015ff0n);
    expect(parseLsn('16/B374D848') > parseLsn('15/FFFFFFFF')).toBe(true);
    expect(() => parseLsn('nope')).toThrow(/WAL position/);
  });

  it('holds a write once the replica replayed a primary position sampled after it ended', () => {
    const f = new ReplicaFreshness(1, 1_000);
    expect(f.serves(0, -Infinity, 0)).toBe(false); // never polled: not known to be well
    f.primaryAt(100, 10n);
    f.replicaAt(0, 10n);
    // A read with no write of its own to see: served.
    expect(f.serves(0, -Infinity, 150)).toBe(true);
    // A write that ended at 120, after the sample at 100: not known to be there yet.
    expect(f.serves(0, 120, 150)).toBe(false);
    f.primaryAt(200, 20n);
    f.replicaAt(0, 15n); // replayed past the first sample only
    expect(f.serves(0, 120, 250)).toBe(false);
    f.primaryAt(300, 20n);
    f.replicaAt(0, 20n); // reached the sample taken at 300 (the write at 120 is older)
    expect(f.serves(0, 120, 350)).toBe(true);
    // A write in flight is never served by a replica.
    expect(f.serves(0, Infinity, 350)).toBe(false);
  });

  it('skips a replica that lags past the bound, or is down, until a poll finds it caught up', () => {
    const f = new ReplicaFreshness(2, 1_000);
    f.primaryAt(0, 5n);
    f.replicaAt(0, 5n);
    f.replicaAt(1, 5n);
    for (let t = 100; t <= 2_000; t += 100) {
      f.primaryAt(t, BigInt(5 + t)); // the primary keeps writing; replica 0 stops replaying
      f.replicaAt(1, BigInt(5 + t));
    }
    expect(f.lagMs(0, 2_000)).toBe(2_000);
    expect(f.serves(0, -Infinity, 2_000)).toBe(false);
    expect(f.serves(1, -Infinity, 2_000)).toBe(true);
    f.replicaDown(1);
    expect(f.serves(1, -Infinity, 2_000)).toBe(false);
    expect(f.lagMs(1, 2_000)).toBe(Infinity);
    f.replicaAt(1, 2_005n);
    expect(f.serves(1, -Infinity, 2_050)).toBe(true);
  });

  it('does not count an idle primary as lag: its position stops, and the replica reaches it', () => {
    const f = new ReplicaFreshness(1, 500);
    for (let t = 0; t <= 10_000; t += 100) {
      f.primaryAt(t, 42n);
      f.replicaAt(0, 42n);
    }
    expect(f.lagMs(0, 10_050)).toBe(50);
    expect(f.serves(0, 9_950, 10_050)).toBe(true);
  });

  it('keeps only the samples within the bound (bounded memory over a long run)', () => {
    const f = new ReplicaFreshness(1, 1_000);
    for (let t = 0; t < 1_000_000; t += 100) f.primaryAt(t, BigInt(t));
    expect((f as unknown as { samples: unknown[] }).samples.length).toBeLessThanOrEqual(12);
  });
});

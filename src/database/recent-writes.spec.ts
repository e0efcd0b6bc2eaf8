import { RecentWrites } from './recent-writes.js';

describe('RecentWrites', () => {
  const alice = RecentWrites.keyOf('api:alice');

  it('keys actors by a short hash that does not show them', () => {
    expect(alice).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(alice).not.toContain('alice');
    expect(RecentWrites.keyOf('api:bob')).not.toBe(alice);
  });

  it('is in flight from the first write begun to the last one ended, then remembers when it ended', () => {
    const w = new RecentWrites(1_000);
    expect(w.writtenAt(alice)).toBe(-Infinity);
    w.began(alice, 10);
    w.began(alice, 20);
    w.ended(alice, 30);
    expect(w.writtenAt(alice)).toBe(Infinity);
    w.ended(alice, 40);
    expect(w.writtenAt(alice)).toBe(40);
    w.heard(alice, 35); // an older announcement does not move it back
    expect(w.writtenAt(alice)).toBe(40);
    w.heard(alice, 50);
    expect(w.writtenAt(alice)).toBe(50);
  });

  it('forgets writes older than it keeps, but never one in flight', () => {
    const w = new RecentWrites(1_000);
    w.heard(alice, 0);
    const bob = RecentWrites.keyOf('api:bob');
    w.began(bob, 0);
    w.heard(RecentWrites.keyOf('api:carol'), 5_000);
    expect(w.writtenAt(alice)).toBe(-Infinity);
    expect(w.writtenAt(bob)).toBe(Infinity);
    expect(w.size).toBe(2);
  });
});

import { timeOrderedId } from './time-ordered-id.js';

describe('timeOrderedId', () => {
  it('is a version 7 UUID (RFC 9562) whose first 48 bits are the time in milliseconds', () => {
    const id = timeOrderedId(Date.UTC(2026, 11, 4, 15, 0, 0, 123));
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(parseInt(id.slice(0, 8) + id.slice(9, 13), 16)).toBe(Date.UTC(2026, 11, 4, 15, 0, 0, 123));
  });

  it('sorts as text in the order of its times, and is random within a millisecond', () => {
    const ids = [1, 2, 255, 256, 4096, 1_764_860_000_000, 2 ** 47].map((ms) => timeOrderedId(ms));
    expect([...ids].sort()).toEqual(ids);
    const same = new Set(Array.from({ length: 1000 }, () => timeOrderedId(42)));
    expect(same.size).toBe(1000);
  });
});

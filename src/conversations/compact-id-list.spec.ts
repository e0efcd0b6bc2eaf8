import { randomUUID } from 'node:crypto';
import { compactIdList } from './compact-id-list.js';

describe('compactIdList', () => {
  it('stores UUIDs as 22 characters each and reads them back in order', () => {
    const ids = Array.from({ length: 8 }, () => randomUUID());
    const stored = compactIdList.to(ids) as string;
    expect(stored).toHaveLength(8 * 22);
    expect(stored).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(compactIdList.from(stored)).toEqual(ids);
    expect(compactIdList.from(compactIdList.to(['00000000-0000-0000-0000-000000000000']))).toEqual([
      '00000000-0000-0000-0000-000000000000',
    ]);
  });

  it('stores a list holding any other id as a JSON array, and reads the JSON arrays stored before', () => {
    const mixed = [randomUUID(), 'imported-7', randomUUID().toUpperCase()];
    expect(compactIdList.to(mixed)).toBe(JSON.stringify(mixed));
    expect(compactIdList.from(JSON.stringify(mixed))).toEqual(mixed);
    const before = [randomUUID(), randomUUID()];
    expect(compactIdList.from(JSON.stringify(before))).toEqual(before);
  });

  it('keeps null as null, and leaves a value not set unset', () => {
    expect(compactIdList.to(null)).toBeNull();
    expect(compactIdList.to(undefined)).toBeUndefined();
    expect(compactIdList.from(null)).toBeNull();
  });
});

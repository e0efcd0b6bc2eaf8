import { decodeAgentCursor, encodeAgentCursor } from './agent-cursor.js';

describe('agent list cursors', () => {
  it('carry a position there and back, names of any script included', () => {
    const position = {
      name: 'Ünïcødé ✈️ "planner"',
      createdAt: new Date('2026-12-01T10:00:00.123Z'),
      id: '95c4996a-a4ac-409c-9778-b7087d6c5234',
    };
    expect(decodeAgentCursor(encodeAgentCursor(position))).toEqual(position);
  });

  it('refuse anything this service did not write', () => {
    const ok = encodeAgentCursor({ name: 'a', createdAt: new Date(0), id: '95c4996a-a4ac-409c-9778-b7087d6c5234' });
    for (const raw of [
      '',
      'not-a-cursor',
      ok.slice(0, -3),
      Buffer.from('["a",1,"x"]').toString('base64url'),
      Buffer.from('{"a":1}').toString('base64url'),
    ]) {
      expect(decodeAgentCursor(raw)).toBeUndefined();
    }
  });
});

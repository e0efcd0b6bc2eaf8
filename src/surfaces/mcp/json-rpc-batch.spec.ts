import type { Request } from 'express';
import { batchRefusal, callsIn, MAX_BATCH_MESSAGES } from './json-rpc-batch.js';

const call = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/list' });
const post = (body: unknown, version?: string) =>
  ({ body, headers: version ? { 'mcp-protocol-version': version } : {} }) as unknown as Request;

describe('JSON-RPC batches on /mcp', () => {
  it('takes single messages under every version, and batches only under 2025-03-26 (or no version header)', () => {
    expect(batchRefusal(call(1), '2025-11-25')).toBeNull();
    expect(batchRefusal([call(1), call(2)], '2025-03-26')).toBeNull();
    expect(batchRefusal([call(1), call(2)], undefined)).toBeNull();
    for (const version of ['2025-06-18', '2025-11-25', '2024-11-05'])
      expect(batchRefusal([call(1)], version)).toContain(`protocol version ${version}`);
  });

  it(`bounds a batch to ${MAX_BATCH_MESSAGES} messages`, () => {
    const batch = (n: number) => Array.from({ length: n }, (_, i) => call(i));
    expect(batchRefusal(batch(MAX_BATCH_MESSAGES), undefined)).toBeNull();
    expect(batchRefusal(batch(MAX_BATCH_MESSAGES + 1), undefined)).toContain(`at most ${MAX_BATCH_MESSAGES}`);
  });

  it('counts each message of a batch it runs; a single message or a refused batch once', () => {
    expect(callsIn(post(call(1)))).toBe(1);
    expect(callsIn(post([call(1), call(2), call(3)]))).toBe(3);
    expect(callsIn(post([call(1), call(2), call(3)], '2025-06-18'))).toBe(1);
    expect(callsIn(post(Array.from({ length: 500 }, (_, i) => call(i))))).toBe(1);
    expect(callsIn(post([]))).toBe(0);
  });
});

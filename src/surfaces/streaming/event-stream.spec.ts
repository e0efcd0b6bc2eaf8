import express, { type Response } from 'express';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { deltaText, openEventStream } from '../../../test/support/sse-client.js';
import { EventStream } from './event-stream.js';

const limits = { sseMaxBufferBytes: 1024 * 1024, sseStallMs: 30_000 };

/** A real Express server whose one route hands its EventStream to `use`, counting the answer's writes to the socket. */
async function serve(
  use: (sse: EventStream) => Promise<void> | void,
): Promise<{ url: string; writes: () => number; close: () => Promise<void> }> {
  let writes = 0;
  const app = express();
  app.get('/stream', (_req, res: Response) => {
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    // Each ServerResponse.write of a chunked answer is one socket write (one writev of size, data, CRLF).
    res.write = ((...args: unknown[]) => {
      writes += 1;
      return write(...args);
    }) as typeof res.write;
    const sse = new EventStream(res, limits);
    void Promise.resolve(use(sse)).finally(() => sse.end());
  });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/stream`,
    writes: () => writes,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('EventStream', () => {
  it('writes the deltas of one turn of the event loop in one socket write, every one of them in order', async () => {
    const pieces = Array.from({ length: 50 }, (_, i) => `piece ${i} `);
    let writesBefore = 0;
    let writesAfter = 0;
    const server = await serve(async (sse) => {
      await turn();
      writesBefore = server.writes();
      for (const piece of pieces) sse.delta(piece);
      await turn();
      writesAfter = server.writes();
    });
    try {
      const events = await (await openEventStream(server.url)).collect();
      expect(writesAfter - writesBefore).toBe(1);
      // One event per delta, as before: only the writes are joined.
      expect(events.filter((e) => e.event === 'delta').map((e) => e.data.text)).toEqual(pieces);
    } finally {
      await server.close();
    }
  });

  it('writes the deltas of separate turns separately: nothing waits for more text', async () => {
    let writes = 0;
    const server = await serve(async (sse) => {
      await turn();
      const before = server.writes();
      for (let i = 0; i < 5; i++) {
        sse.delta(`${i} `);
        await turn();
      }
      writes = server.writes() - before;
    });
    try {
      const events = await (await openEventStream(server.url)).collect();
      expect(writes).toBe(5);
      expect(deltaText(events)).toBe('0 1 2 3 4 ');
    } finally {
      await server.close();
    }
  });

  it('hands a large gathering to the socket at once, so a slow client is seen as behind in the same turn', async () => {
    let writesInTurn = 0;
    const text = 'x'.repeat(1000);
    const server = await serve(async (sse) => {
      await turn();
      const before = server.writes();
      for (let i = 0; i < 40; i++) sse.delta(text);
      writesInTurn = server.writes() - before;
    });
    try {
      const events = await (await openEventStream(server.url)).collect();
      // 40,000 characters of frames: the first full gathering (16 KiB) is written within the turn;
      // the socket's buffer is then full, and the rest waits for its drain, in order.
      expect(writesInTurn).toBeGreaterThanOrEqual(1);
      expect(deltaText(events)).toBe(text.repeat(40));
    } finally {
      await server.close();
    }
  });
});

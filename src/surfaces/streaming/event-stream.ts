import { Logger } from '@nestjs/common';
import type { Response } from 'express';
import type { AppConfig } from '../../config/app-config.js';
import { FRAME_CHARS, HeldText, splitPoint } from './held-text.js';

/** How much a stream may hold back for a client that is not reading (SSE_MAX_BUFFER_BYTES, SSE_STALL_MS). */
export type StreamLimits = Pick<AppConfig, 'sseMaxBufferBytes' | 'sseStallMs'>;

/** A large event (a `done` repeating a long reply) is written in slices of this many characters, so progress shows. */
const SLICE_CHARS = 64 * 1024;

/** Frames gathered for one socket write are handed over at once past this size, so backpressure is seen in time. */
const GATHER_CHARS = 16 * 1024;

/**
 * Streams with frames gathered in this turn of the event loop: each gets one socket write in
 * the check phase, after the I/O callbacks that produced its frames. Idle, a frame goes out as
 * soon as the callback that made it returns; under load, every delta a stream got in one turn
 * shares one write (and one `writev`), instead of one each.
 */
const gathering = new Set<EventStream>();
let flushScheduled = false;

function writeGathered(): void {
  flushScheduled = false;
  const streams = [...gathering];
  gathering.clear();
  for (const stream of streams) {
    try {
      stream.writeOut();
    } catch (error) {
      // One broken answer must not keep the others' frames back.
      logger.error(`Could not write a server-sent event stream: ${(error as Error).message}`);
    }
  }
}

type Queued =
  | { readonly kind: 'text'; readonly held: HeldText }
  // Kept as data until its turn, so a held-back `done` costs no second copy of the reply meanwhile.
  | { readonly kind: 'event'; readonly event: string; readonly data: unknown; wire?: string; at: number };

const logger = new Logger('EventStream');

/** How a protocol spells its events on the wire, and the headers it answers with. */
export interface EventFormat {
  readonly headers: Record<string, string>;
  /** A frame of reply text (at most FRAME_CHARS). */
  delta(text: string): string;
  event(event: string, data: unknown): string;
}

/** Our REST surface's events: `event: <name>` and `data: <json>`; text as `delta` {text}. */
export const NAMED_EVENTS: EventFormat = {
  headers: { 'Content-Type': 'text/event-stream; charset=utf-8' },
  // The same bytes as wire('delta', { text }), without an object per delta.
  delta: (text) => `event: delta\ndata: {"text":${JSON.stringify(text)}}\n\n`,
  event: wire,
};

/**
 * A `text/event-stream` answer, in the events of `format`. Writing after the client has gone is a no-op, so a producer
 * never has to care whether anyone is still listening.
 *
 * Backpressure: once the socket's buffer is full (`write()` returns false), nothing more is
 * written until it drains; deltas that come meanwhile are held back in order and sent on drain,
 * joined into larger `delta` events. A client that falls more than `sseMaxBufferBytes` of text
 * behind, or takes nothing for `sseStallMs`, is dropped: the connection is cut (no `done`), so
 * the client sees either the whole reply in order or a broken stream it can follow again. Only
 * the connection ends: the reply goes on being generated and stored.
 */
export class EventStream {
  private closed = false;
  private ending = false;
  private blocked = false;
  private readonly queue: Queued[] = [];
  /** Frames written in this turn of the event loop, not yet handed to the socket (at most about GATHER_CHARS). */
  private gathered = '';
  /** Held-back text that came while the client was behind: what SSE_MAX_BUFFER_BYTES bounds. */
  private behindBytes = 0;
  /** Held-back text of a delta handed over while the client was keeping up (the follow route's first delta, say). */
  private acceptedBytes = 0;
  private stall?: NodeJS.Timeout;
  private readonly keepAlive: NodeJS.Timeout;
  /** Aborts when the client goes away (or is dropped). */
  readonly clientGone: AbortSignal;

  /**
   * `format` writes events in another protocol's frames (the UI message stream, the OpenAI
   * surface): it is called as each frame is written, in order, so it may number them.
   */
  constructor(
    private readonly res: Response,
    private readonly limits: StreamLimits,
    private readonly format: EventFormat = NAMED_EVENTS,
  ) {
    const gone = new AbortController();
    this.clientGone = gone.signal;
    res.status(200);
    const headers = {
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      // Reverse proxies (nginx) must not buffer the stream.
      'X-Accel-Buffering': 'no',
      ...format.headers,
    };
    // setHeader, not Express's set: the content type stays exactly the format's (no charset added).
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    res.flushHeaders();
    res.on('close', () => {
      this.closed = true;
      this.release();
      gone.abort();
    });
    res.on('drain', () => {
      this.blocked = false;
      clearTimeout(this.stall);
      this.stall = undefined;
      this.flush();
    });
    // Idle connections get cut by proxies; a comment line keeps them open.
    this.keepAlive = setInterval(() => {
      if (!this.blocked && this.queue.length === 0) this.write(': keep-alive\n\n');
    }, 15_000);
    this.keepAlive.unref();
  }

  /** A piece of the reply; pieces held back for a slow client are joined, never lost or reordered. */
  delta(text: string): void {
    if (this.closed || this.ending || !text) return;
    const keepingUp = !this.blocked && this.queue.length === 0;
    // Keeping up, a delta of one frame goes straight to the gathered write: nothing is held back.
    if (keepingUp && text.length <= FRAME_CHARS) return this.write(this.format.delta(text));
    const last = this.queue.at(-1);
    if (last?.kind === 'text') last.held.push(text);
    else this.queue.push({ kind: 'text', held: new HeldText(text) });
    if (keepingUp) this.acceptedBytes += Buffer.byteLength(text);
    else this.behindBytes += Buffer.byteLength(text);
    if (this.behindBytes > this.limits.sseMaxBufferBytes) {
      return this.drop(`fell more than SSE_MAX_BUFFER_BYTES (${this.limits.sseMaxBufferBytes}) behind`);
    }
    this.flush();
  }

  send(event: string, data: unknown): void {
    if (this.closed || this.ending) return;
    this.queue.push({ kind: 'event', event, data, at: 0 });
    this.flush();
  }

  /** Ends the answer once everything held back has been written. */
  end(): void {
    clearInterval(this.keepAlive);
    if (this.closed || this.ending) return;
    this.ending = true;
    this.flush();
  }

  /** Breaks the connection, as a network failure would: the client knows the answer is not whole and follows again. */
  cut(): void {
    if (this.closed) return;
    this.closed = true;
    this.release();
    this.res.destroy();
  }

  /** Writes what is queued, in order, until the socket's buffer is full. */
  private flush(): void {
    while (!this.closed && !this.blocked && this.queue.length > 0) {
      const next = this.queue[0];
      if (next.kind === 'text') {
        const frame = next.held.take();
        if (next.held.empty) this.queue.shift();
        this.sent(Buffer.byteLength(frame));
        this.write(this.format.delta(frame));
      } else {
        next.wire ??= this.format.event(next.event, next.data);
        const end = splitPoint(next.wire, next.at + SLICE_CHARS);
        const slice = next.wire.slice(next.at, end);
        next.at = end;
        if (end >= next.wire.length) this.queue.shift();
        this.write(slice);
      }
    }
    // Ended once all is handed to the socket; the stall timer still watches the last bytes.
    if (this.ending && !this.closed && this.queue.length === 0 && !this.res.writableEnded) {
      const last = this.gathered;
      this.gathered = '';
      gathering.delete(this);
      this.res.end(last);
    }
  }

  /** Held-back text now written: counted off what was handed over first, as it was queued first. */
  private sent(bytes: number): void {
    const accepted = Math.min(bytes, this.acceptedBytes);
    this.acceptedBytes -= accepted;
    this.behindBytes -= bytes - accepted;
  }

  /** Gathers `chunk` for this turn's write; a full gathering is written now, so a client that is behind blocks the queue at once. */
  private write(chunk: string): void {
    if (this.closed) return;
    this.gathered += chunk;
    if (this.gathered.length >= GATHER_CHARS) return this.writeOut();
    gathering.add(this);
    if (!flushScheduled) {
      flushScheduled = true;
      setImmediate(writeGathered);
    }
  }

  /** Hands what was gathered to the socket in one write (called once per turn of the event loop, or when the gathering is full). */
  writeOut(): void {
    const chunk = this.gathered;
    if (this.closed || !chunk) return;
    this.gathered = '';
    gathering.delete(this);
    if (this.res.write(chunk)) return;
    this.blocked = true;
    this.watchStall();
  }

  /** Drops the stream if its client takes nothing for SSE_STALL_MS; each write it takes (or a drain) counts. */
  private watchStall(): void {
    if (this.stall) return;
    let waiting = this.res.writableLength;
    const check = () => {
      const now = this.res.writableLength;
      if (now >= waiting) return this.drop(`stalled for SSE_STALL_MS (${this.limits.sseStallMs} ms)`);
      waiting = now;
      this.stall = setTimeout(check, this.limits.sseStallMs).unref();
    };
    this.stall = setTimeout(check, this.limits.sseStallMs).unref();
  }

  private drop(why: string): void {
    if (this.closed) return;
    logger.warn(
      `Dropped a server-sent event stream whose client ${why}; the reply goes on, the client can follow it again`,
    );
    this.cut();
  }

  private release(): void {
    clearTimeout(this.stall);
    clearInterval(this.keepAlive);
    this.gathered = '';
    gathering.delete(this);
    this.queue.length = 0;
    this.behindBytes = 0;
    this.acceptedBytes = 0;
  }
}

export function wire(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

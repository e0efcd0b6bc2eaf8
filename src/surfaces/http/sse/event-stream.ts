import type { Response } from 'express';

/**
 * A `text/event-stream` answer. Writing after the client has gone is a no-op, so a producer
 * never has to care whether anyone is still listening.
 */
export class EventStream {
  private closed = false;
  private readonly keepAlive: NodeJS.Timeout;
  /** Aborts when the client goes away. */
  readonly clientGone: AbortSignal;

  constructor(private readonly res: Response) {
    const gone = new AbortController();
    this.clientGone = gone.signal;
    res.status(200);
    res.set({
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      // Reverse proxies (nginx) must not buffer the stream.
      'X-Accel-Buffering': 'no',
    });
    res.flushHeaders();
    res.on('close', () => {
      this.closed = true;
      gone.abort();
    });
    // Idle connections get cut by proxies; a comment line keeps them open.
    this.keepAlive = setInterval(() => this.write(': keep-alive\n\n'), 15_000);
    this.keepAlive.unref();
  }

  send(event: string, data: unknown): void {
    this.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  end(): void {
    clearInterval(this.keepAlive);
    if (!this.closed) this.res.end();
    this.closed = true;
  }

  private write(chunk: string): void {
    if (!this.closed) this.res.write(chunk);
  }
}

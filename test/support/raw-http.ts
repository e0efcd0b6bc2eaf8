import { connect } from 'node:net';
import { Agent, request } from 'node:http';

/** One request exactly as it goes on the wire: no encoding, no default headers but Host and Content-Length. */
export interface RawRequest {
  readonly method: string;
  /** Path and query, already percent-encoded (or deliberately not). */
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body?: string | Buffer;
}

export interface RawAnswer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
}

const agent = new Agent({ keepAlive: true, maxSockets: 8 });

/**
 * Sends a request to `baseUrl` (http://127.0.0.1:PORT) with node:http, so that bodies, header
 * values and paths go out unchanged. An answer that arrives while the body is still being sent
 * (a 413 for an oversized body) counts, even if the connection is then cut.
 */
export function sendRaw(baseUrl: string, req: RawRequest, timeoutMs = 15_000): Promise<RawAnswer> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    let answered = false;
    const body =
      req.body === undefined ? undefined : Buffer.isBuffer(req.body) ? req.body : Buffer.from(req.body, 'utf8');
    const r = request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        method: req.method,
        path: req.path,
        headers: { ...req.headers, ...(body ? { 'Content-Length': String(body.length) } : {}) },
        timeout: timeoutMs,
      },
      (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        const done = () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') });
        res.on('end', done);
        res.on('aborted', done);
        res.on('error', done);
      },
    );
    r.on('timeout', () => r.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    r.on('error', (error) => {
      if (!answered) reject(error);
    });
    r.end(body);
  });
}

/** Percent-encodes every byte of the UTF-8 form of `s` except unreserved characters (lone surrogates become U+FFFD). */
export function percentEncode(s: string): string {
  let out = '';
  for (const byte of Buffer.from(s, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** A string as the bytes of its UTF-8 form, one latin1 character each: how non-ASCII goes into a header. */
export const asHeaderBytes = (s: string) => Buffer.from(s, 'utf8').toString('latin1');

export interface HeadOnlyAnswer {
  /** The answer, head and body, as text. */
  readonly text: string;
  /** Body bytes the connection took after the answer before the server closed it (0 when none were offered). */
  readonly bodyBytesTaken: number;
}

/**
 * Opens a TCP connection, sends only `head` (request line and headers, with the final blank
 * line) and waits for a whole answer (its Content-Length) while no body byte has been sent.
 * Then, when `offerBytes` is set, it goes on sending body bytes until the server closes the
 * connection or `offerBytes` went in, and counts them. Rejects when no answer comes within
 * `timeoutMs`: a server that waits for the body never answers.
 */
export function sendHeadOnly(
  baseUrl: string,
  head: string,
  options: { offerBytes?: number; timeoutMs?: number } = {},
): Promise<HeadOnlyAnswer> {
  const url = new URL(baseUrl);
  const timeoutMs = options.timeoutMs ?? 10_000;
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    let received = Buffer.alloc(0);
    let text: string | undefined;
    let taken = 0;
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no whole answer within ${timeoutMs} ms to a request whose body was not sent`));
    }, timeoutMs);
    const finish = () => {
      if (text === undefined) return;
      clearTimeout(timer);
      socket.destroy();
      resolve({ text, bodyBytesTaken: taken });
    };
    const offer = () => {
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const next = () => {
        if (socket.destroyed || taken >= (options.offerBytes ?? 0)) return finish();
        socket.write(chunk, (error) => {
          if (error) return finish();
          taken += chunk.length;
          next();
        });
      };
      next();
    };
    socket.on('data', (chunk: Buffer) => {
      if (text !== undefined) return;
      received = Buffer.concat([received, chunk]);
      const end = received.indexOf('\r\n\r\n');
      if (end < 0) return;
      const length = Number(
        /\r\ncontent-length:\s*(\d+)/i.exec(received.subarray(0, end).toString('latin1'))?.[1] ?? 0,
      );
      if (received.length < end + 4 + length) return;
      text = received.subarray(0, end + 4 + length).toString('utf8');
      if (options.offerBytes) offer();
      else finish();
    });
    socket.on('error', finish);
    socket.on('close', finish);
    socket.write(head);
  });
}

/** A client that sent its request and then stopped reading: the server's writes back up. */
export interface StalledClient {
  /** The first bytes of the answer (status line and headers, maybe more); the socket is paused once they arrive. */
  readonly head: Promise<string>;
  /**
   * Reads on: resolves once the connection ends with everything the server sent (`text`), the
   * body of a chunked answer decoded (`body`), and whether that answer was ended properly.
   */
  resume(): Promise<{ text: string; body: string; chunkedEnd: boolean }>;
  destroy(): void;
}

/**
 * Sends `req` over a raw TCP socket and stops reading after the first bytes of the answer, like
 * a client whose network or event loop is stuck. The kernel buffers fill, then the server's.
 */
export function stalledRequest(baseUrl: string, req: RawRequest): StalledClient {
  const url = new URL(baseUrl);
  const socket = connect({ host: url.hostname, port: Number(url.port) });
  const body =
    req.body === undefined ? Buffer.alloc(0) : Buffer.isBuffer(req.body) ? req.body : Buffer.from(req.body, 'utf8');
  const headers = { Host: url.host, ...req.headers, 'Content-Length': String(body.length) };
  socket.write(
    `${req.method} ${req.path} HTTP/1.1\r\n${Object.entries(headers)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('')}\r\n`,
  );
  socket.write(body);
  const chunks: Buffer[] = [];
  const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('error', () => undefined);
  let answered: (head: string) => void;
  const head = new Promise<string>((resolve, reject) => {
    answered = resolve;
    socket.once('close', () => reject(new Error('the connection closed before any answer')));
  });
  head.catch(() => undefined);
  socket.on('data', (chunk: Buffer) => {
    chunks.push(chunk);
    if (chunks.length > 1) return;
    socket.pause();
    answered(chunk.toString('latin1'));
  });
  return {
    head,
    async resume() {
      socket.resume();
      await ended;
      const raw = Buffer.concat(chunks);
      const text = raw.toString('utf8');
      // A chunked answer that was ended properly, rather than cut, finishes with an empty chunk.
      return { text, body: dechunk(raw), chunkedEnd: text.endsWith('\r\n0\r\n\r\n') };
    },
    destroy: () => socket.destroy(),
  };
}

/** The body of a raw chunked HTTP answer, as far as it arrived whole. */
function dechunk(raw: Buffer): string {
  let at = raw.indexOf('\r\n\r\n') + 4;
  const parts: Buffer[] = [];
  for (;;) {
    const lineEnd = raw.indexOf('\r\n', at);
    if (lineEnd < 0) break;
    const size = parseInt(raw.subarray(at, lineEnd).toString('latin1'), 16);
    if (!(size > 0) || lineEnd + 2 + size > raw.length) break;
    parts.push(raw.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts).toString('utf8');
}

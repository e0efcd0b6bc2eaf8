import { Agent, request } from 'node:http';
import { connect } from 'node:net';

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
    const body = req.body === undefined ? undefined : Buffer.isBuffer(req.body) ? req.body : Buffer.from(req.body, 'utf8');
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
        const done = () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') });
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
export function sendHeadOnly(baseUrl: string, head: string, options: { offerBytes?: number; timeoutMs?: number } = {}): Promise<HeadOnlyAnswer> {
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
      const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(received.subarray(0, end).toString('latin1'))?.[1] ?? 0);
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

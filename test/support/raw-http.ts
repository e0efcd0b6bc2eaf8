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
  /** Everything the server sent, head and body, as text. */
  readonly text: string;
  /** Body bytes the connection took after the answer before the server closed it (0 when none were offered). */
  readonly bodyBytesTaken: number;
}

/**
 * Opens a TCP connection, sends only `head` (request line and headers, with the final blank
 * line), and waits for the server to answer and close the connection without any body byte
 * having been sent. Then, when `offerBytes` is set, it tries to send that many body bytes to
 * see how many the connection takes before it is closed. Rejects when no answer comes within
 * `timeoutMs`: a server that waits for the body never answers.
 */
export function sendHeadOnly(baseUrl: string, head: string, options: { offerBytes?: number; timeoutMs?: number } = {}): Promise<HeadOnlyAnswer> {
  const url = new URL(baseUrl);
  const timeoutMs = options.timeoutMs ?? 10_000;
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    const received: Buffer[] = [];
    let taken = 0;
    let answered = false;
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within ${timeoutMs} ms to a request whose body was not sent`));
    }, timeoutMs);
    const offer = () => {
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const next = () => {
        if (socket.destroyed || taken >= (options.offerBytes ?? 0)) return finish();
        taken += chunk.length;
        socket.write(chunk, (error) => (error ? finish() : next()));
      };
      next();
    };
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ text: Buffer.concat(received).toString('utf8'), bodyBytesTaken: taken });
    };
    socket.on('data', (chunk: Buffer) => {
      received.push(chunk);
      if (!answered && Buffer.concat(received).includes('\r\n\r\n')) {
        answered = true;
        if (options.offerBytes) offer();
      }
    });
    socket.on('error', () => (answered ? finish() : undefined));
    socket.on('close', () => (answered ? finish() : undefined));
    socket.write(head);
  });
}

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

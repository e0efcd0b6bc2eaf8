import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { OpenApiContract } from './openapi-contract.js';

/** Enough for any error body and most answers; a longer answer is not checked against the document. */
const MAX_BODY_BYTES = 256 * 1024;

const HEALTH = /^\/health(\/ready)?(\?|$)/;

let shared: OpenApiContract | undefined;
/** One compiled document per test process: compiling its schemas is the costly part. */
function contract(): OpenApiContract {
  shared ??= new OpenApiContract();
  return shared;
}

/**
 * Watches every answer of a test app's server against the committed docs/openapi.json:
 * - each JSON error answer (4xx, 5xx) must carry a `code` that the document lists (ErrorCode),
 *   on every route;
 * - each answer of a documented operation must have a documented status, its documented
 *   headers, and a body that fits (JSON validated, every server-sent event of a stream
 *   validated against the stream's `x-sse-events`);
 * - a success from an `/api/` path the document does not have is a problem too.
 * Each departure goes to `report` as it happens.
 */
export function watchAnswers(server: Server, report: (problem: string) => void): void {
  const codes = new Set<string>((contract().spec.components.schemas.ErrorCode?.enum ?? []) as string[]);
  // Before Express's own listener: the response is wrapped before anything writes to it.
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
    const keep = (chunk: unknown) => {
      if (chunk === undefined || chunk === null || typeof chunk === 'function' || size > MAX_BODY_BYTES) return;
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
      size += buffer.length;
      if (size <= MAX_BODY_BYTES) chunks.push(buffer);
    };
    res.write = ((...args: unknown[]) => (keep(args[0]), write(...args))) as typeof res.write;
    res.end = ((...args: unknown[]) => {
      keep(args[0]);
      // HEAD has no body to check; OPTIONS is the CORS preflight, not an operation.
      if (size <= MAX_BODY_BYTES && req.method !== 'HEAD' && req.method !== 'OPTIONS') {
        const problem = answerProblems(req, res, Buffer.concat(chunks).toString('utf8'), codes);
        for (const p of problem) report(`${req.method} ${req.url} -> ${res.statusCode}: ${p}`);
      }
      return end(...args);
    }) as typeof res.end;
  });
}

function answerProblems(req: IncomingMessage, res: ServerResponse, text: string, codes: ReadonlySet<string>): string[] {
  const url = req.url ?? '/';
  const mediaType = String(res.getHeader('content-type') ?? '')
    .split(';')[0]
    .trim();
  const status = res.statusCode;
  let body: unknown = text;
  if (mediaType === 'application/json' && text !== '') {
    try {
      body = JSON.parse(text);
    } catch {
      return [`not JSON: ${text.slice(0, 80)}`];
    }
  }
  // The health routes answer 503 with their own documented body (HealthDto), not an error.
  if (status >= 400 && mediaType === 'application/json' && !HEALTH.test(url) && text !== '') {
    const problem = codeProblem(body);
    if (problem) return [problem];
  }
  // Express matches a path with one trailing slash as the path without it.
  const lookup = url.replace(/^(\/.+?)\/(\?|$)/, '$1$2');
  const found = contract().operationOf(req.method ?? 'GET', lookup);
  if (!found) {
    const path = url.split('?')[0];
    return status < 400 && path.startsWith('/api/') && !path.startsWith('/api/docs')
      ? ['a success from a path the document does not have']
      : [];
  }
  return contract().responseProblems(
    req.method ?? 'GET',
    lookup,
    status,
    res.getHeaders() as Record<string, unknown>,
    text === '' ? undefined : body,
    mediaType,
  );

  function codeProblem(value: unknown): string | null {
    // JSON-RPC answers of /mcp carry their own error object.
    if (value !== null && typeof value === 'object' && 'jsonrpc' in value) return null;
    // The OpenAI surface (/v1) answers in OpenAI's shape: { error: { message, type, param, code } }.
    const path = url.split('?')[0];
    if (path.startsWith('/v1/') || path === '/v1') {
      const openAi = (value as { error?: { message?: unknown; type?: unknown } } | null)?.error;
      return openAi &&
        typeof openAi === 'object' &&
        typeof openAi.message === 'string' &&
        typeof openAi.type === 'string'
        ? null
        : `not an OpenAI error body: ${text.slice(0, 120)}`;
    }
    // The OAuth server of /mcp answers in OAuth's shape (RFC 6749 section 5.2): { error, error_description }.
    // Its SDK handlers are mounted routers, which rewrite req.url; originalUrl keeps the path.
    const originalPath = ((req as IncomingMessage & { originalUrl?: string }).originalUrl ?? url).split('?')[0];
    if (originalPath.startsWith('/oauth/') && typeof (value as { error?: unknown } | null)?.error === 'string')
      return null;
    const code = (value as { code?: unknown } | null)?.code;
    if (typeof code !== 'string') return `no code in ${text.slice(0, 120)}`;
    return codes.has(code) ? null : `code ${code} is not documented (ErrorCode in docs/openapi.json)`;
  }
}

import { readFileSync } from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';

const SPEC_FILE = fileURLToPath(new URL('../../docs/openapi.json', import.meta.url));
/** Enough for any error body; a longer one is still checked for being JSON with a code. */
const MAX_BODY_BYTES = 256 * 1024;

const HEALTH = /^\/health(\/ready)?(\?|$)/;

/** The codes docs/openapi.json documents for the `code` of an error body (ErrorDto.code). */
export function documentedErrorCodes(): ReadonlySet<string> {
  const spec = JSON.parse(readFileSync(SPEC_FILE, 'utf8')) as { components: { schemas: Record<string, { enum?: string[] }> } };
  return new Set(spec.components.schemas.ErrorCode?.enum ?? []);
}

/**
 * Watches every answer of a test app's server: each JSON error answer (4xx, 5xx) must carry a
 * `code` that docs/openapi.json documents. `problems()` lists those that did not, so a spec's
 * teardown fails on any error body of the suite without a documented code.
 */
export function watchErrorBodies(server: Server): { problems(): string[] } {
  const codes = documentedErrorCodes();
  const problems: string[] = [];
  // Before Express's own listener: the response is wrapped before anything writes to it.
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
    const keep = (chunk: unknown) => {
      if (res.statusCode < 400 || chunk === undefined || chunk === null || typeof chunk === 'function' || size > MAX_BODY_BYTES) return;
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
      size += buffer.length;
      chunks.push(buffer);
    };
    res.write = ((...args: unknown[]) => (keep(args[0]), write(...args))) as typeof res.write;
    res.end = ((...args: unknown[]) => {
      keep(args[0]);
      const type = String(res.getHeader('content-type') ?? '');
      // The health routes answer 503 with their own documented body (HealthDto), not an error.
      if (res.statusCode >= 400 && !HEALTH.test(req.url ?? '') && type.startsWith('application/json') && size <= MAX_BODY_BYTES) {
        const problem = problemOf(Buffer.concat(chunks).toString('utf8'), codes, (req.url ?? '').split('?')[0]);
        if (problem) problems.push(`${req.method} ${req.url} -> ${res.statusCode}: ${problem}`);
      }
      return end(...args);
    }) as typeof res.end;
  });
  return { problems: () => [...problems] };
}

function problemOf(text: string, codes: ReadonlySet<string>, path: string): string | null {
  if (text === '') return null; // a HEAD answer, or a response ended after its headers went out
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `not JSON: ${text.slice(0, 80)}`;
  }
  // JSON-RPC answers of /mcp carry their own error object.
  if (body !== null && typeof body === 'object' && 'jsonrpc' in body) return null;
  // The OpenAI surface (/v1) answers in OpenAI's shape: { error: { message, type, param, code } }.
  const openAi = (body as { error?: { message?: unknown; type?: unknown } } | null)?.error;
  if (path.startsWith('/v1/') || path === '/v1') {
    return openAi && typeof openAi === 'object' && typeof openAi.message === 'string' && typeof openAi.type === 'string' ? null : `not an OpenAI error body: ${text.slice(0, 120)}`;
  }
  const code = (body as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return `no code in ${text.slice(0, 120)}`;
  return codes.has(code) ? null : `code ${code} is not documented (ErrorCode in docs/openapi.json)`;
}

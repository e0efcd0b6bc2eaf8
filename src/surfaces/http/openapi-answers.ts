import type { OpenAPIObject } from '@nestjs/swagger';

interface Operation {
  operationId?: string;
  security?: unknown[];
  responses?: Record<string, { description?: string; headers?: Record<string, unknown>; content?: unknown }>;
}

const ERROR_CONTENT = { 'application/json': { schema: { $ref: '#/components/schemas/ErrorDto' } } };

/** Sent with every 429 (RFC 9110 Retry-After; express-rate-limit's draft-7 RateLimit fields on the per-minute limit). */
const RATE_LIMIT_HEADERS = {
  'Retry-After': {
    required: true,
    description: 'Seconds until the same request may succeed.',
    schema: { type: 'integer', minimum: 0 },
  },
  RateLimit: {
    description: 'On RATE_LIMIT_PER_MINUTE: `limit=<n>, remaining=<n>, reset=<seconds>`.',
    schema: { type: 'string' },
  },
  'RateLimit-Policy': { description: 'On RATE_LIMIT_PER_MINUTE: `<limit>;w=60`.', schema: { type: 'string' } },
};

const HOST_REFUSED =
  'in single-user mode (no API keys), a Host or Origin that is not loopback nor allowed (ALLOWED_HOSTS, CORS_ORIGINS), code `forbidden`';

/**
 * Answers every route may give that no decorator states: 403 from the host rule of single-user
 * mode, and 400, 413 and 415 for a body that is malformed, too large or not JSON (a body is
 * checked before routing, so even routes that take none refuse a bad one); and on every keyed route: 429 from the per-actor rate
 * limit (RateLimitGuard, a global guard, so on every route with a key), and 409 `limit_reached`
 * when POST /api/conversations meets the caller's quota, or an import's agents meet
 * MAX_AGENTS_PER_ACTOR (AgentsService refuses, whoever creates the agent).
 */
export function documentCommonAnswers(document: OpenAPIObject): void {
  for (const item of Object.values(document.paths)) {
    for (const [method, operation] of Object.entries(item) as Array<[string, Operation]>) {
      if (!operation?.responses) continue;
      // Express tags every GET answer with a weak ETag and answers a matching If-None-Match with 304.
      if (method === 'get' && operation.responses['200']) {
        operation.responses['304'] ??= {
          description: 'Not modified: If-None-Match names the ETag of the current answer (no body)',
        };
      }
      // HostGuard and the JSON content-type check run before any route, health included.
      const forbidden = operation.responses['403'];
      operation.responses['403'] = {
        description: forbidden?.description
          ? `${forbidden.description}; or ${HOST_REFUSED}`
          : `${HOST_REFUSED[0].toUpperCase()}${HOST_REFUSED.slice(1)}`,
        content: forbidden?.content ?? ERROR_CONTENT,
      };
      // The body checks run before any route too: a body is read, and refused, wherever it is sent.
      operation.responses['400'] ??= {
        description: 'A malformed JSON body (code `invalid_input`)',
        content: ERROR_CONTENT,
      };
      operation.responses['413'] ??= {
        description: 'A body larger than BODY_LIMIT_BYTES (code `payload_too_large`)',
        content: ERROR_CONTENT,
      };
      operation.responses['415'] ??= {
        description: 'A body sent with a content type other than JSON (code `unsupported_media_type`)',
        content: ERROR_CONTENT,
      };
      if (!operation.security?.length) continue;
      const existing = operation.responses['429'];
      operation.responses['429'] = {
        description: existing?.description ?? 'Too many requests (RATE_LIMIT_PER_MINUTE); see Retry-After',
        headers: RATE_LIMIT_HEADERS,
        content: existing?.content ?? ERROR_CONTENT,
      };
      if (operation.operationId === 'createConversation' && !operation.responses['409']) {
        operation.responses['409'] = {
          description: 'The caller has as many conversations as allowed (code `limit_reached`)',
          content: ERROR_CONTENT,
        };
      }
      if (operation.operationId === 'importArchive' && !operation.responses['409']) {
        operation.responses['409'] = {
          description: "The file's agents would take the caller past MAX_AGENTS_PER_ACTOR (code `limit_reached`)",
          content: ERROR_CONTENT,
        };
      }
    }
  }
}

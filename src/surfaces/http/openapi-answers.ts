import type { OpenAPIObject } from '@nestjs/swagger';

interface Operation {
  operationId?: string;
  security?: unknown[];
  responses?: Record<string, { description?: string; headers?: Record<string, unknown>; content?: unknown }>;
}

const ERROR_CONTENT = { 'application/json': { schema: { $ref: '#/components/schemas/ErrorDto' } } };

/** Sent with every 429 (RFC 9110 Retry-After; express-rate-limit's draft-7 RateLimit fields on the per-minute limit). */
const RATE_LIMIT_HEADERS = {
  'Retry-After': { required: true, description: 'Seconds until the same request may succeed.', schema: { type: 'integer', minimum: 0 } },
  RateLimit: { description: 'On RATE_LIMIT_PER_MINUTE: `limit=<n>, remaining=<n>, reset=<seconds>`.', schema: { type: 'string' } },
  'RateLimit-Policy': { description: 'On RATE_LIMIT_PER_MINUTE: `<limit>;w=60`.', schema: { type: 'string' } },
};

/**
 * Answers every keyed route may give that no decorator states: 429 from the per-actor rate
 * limit (RateLimitGuard, a global guard, so on every route with a key), and 409 `limit_reached`
 * when POST /api/conversations meets the caller's quota.
 */
export function documentCommonAnswers(document: OpenAPIObject): void {
  for (const item of Object.values(document.paths)) {
    for (const operation of Object.values(item) as Operation[]) {
      if (!operation?.responses || !operation.security?.length) continue;
      const existing = operation.responses['429'];
      operation.responses['429'] = {
        description: existing?.description ?? 'Too many requests (RATE_LIMIT_PER_MINUTE); see Retry-After',
        headers: RATE_LIMIT_HEADERS,
        content: existing?.content ?? ERROR_CONTENT,
      };
      if (operation.operationId === 'createConversation' && !operation.responses['409']) {
        operation.responses['409'] = { description: 'The caller has as many conversations as allowed (code `limit_reached`)', content: ERROR_CONTENT };
      }
    }
  }
}

import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { ErrorDto } from '../errors/error.dto.js';
import { nullableRefsAsAnyOf } from './openapi-nullable.js';
import { documentRequestRules } from './openapi-requests.js';
import { documentCommonAnswers } from './openapi-answers.js';

/** The OpenAPI document, generated from the controllers' and DTOs' decorators. */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Chat memory API')
    .setDescription(
      'Stores conversations and replays their recent history to an OpenAI-compatible model. ' +
        // Markdown: outside a code span, <API key> is read as an HTML tag and vanishes in Swagger UI.
        'Every route except `/health`, `/metrics`, `GET /api/settings` (whether a key is needed) and `GET /api/shared/{token}` (a share link) needs `Authorization: Bearer <API key>` unless the server runs in single-user mode.',
    )
    .setVersion('0.1.0')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'API key', description: 'An API key from API_KEYS' })
    // Relative: the server that serves the document (what Swagger UI uses without a servers list).
    .addServer('/', 'This server')
    .addTag('chat', 'Send a message and get the reply, whole or streamed')
    .addTag('conversations', 'List, read, create, delete and regenerate conversations')
    .addTag('messages', 'Follow, stop or pin a message')
    .addTag('state', "A conversation's session state")
    .addTag('agents', 'Named system prompts, model settings and tools for conversations')
    .addTag('memories', 'Long-term memories: facts about the caller that every later turn reads')
    .addTag('search', "Ranked search over the caller's messages across conversations (any word, stemmed, best first)")
    .addTag('usage', "The caller's token usage")
    .addTag(
      'ui-chat',
      "A backend for the Vercel AI SDK's useChat: its UI message stream, resume and stop (docs/ai-sdk.md)",
    )
    .addTag(
      'sharing',
      'Read-only links to a snapshot of a conversation: make, list, revoke, read without a key, continue as your own',
    )
    .addTag('account', 'Everything of the caller: export it, or erase it')
    .addTag('health', 'Liveness and database check')
    .addGlobalResponse({
      status: 503,
      description:
        'The server is shutting down, or the database is unavailable or locked by another process; nothing was stored. Retry after Retry-After seconds',
      type: ErrorDto,
    })
    .build();
  const document = SwaggerModule.createDocument(app, config, {
    operationIdFactory: (_controller, method) => method,
  });
  documentStorageFull(document);
  nullableRefsAsAnyOf(document);
  documentRequestRules(document);
  documentCommonAnswers(document);
  return document;
}

const WRITES = new Set(['post', 'put', 'patch', 'delete']);

/** Every operation that writes may meet a full database. */
function documentStorageFull(document: OpenAPIObject): void {
  const errorBody = { $ref: '#/components/schemas/ErrorDto' };
  for (const item of Object.values(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!WRITES.has(method) || !operation?.responses) continue;
      operation.responses['507'] = {
        description:
          'The database is full: nothing was stored (code `storage_full`, or `reply_not_stored` when only the reply could not be kept). Retry after Retry-After seconds',
        content: { 'application/json': { schema: errorBody } },
      };
    }
  }
}

/** Swagger UI at /api/docs and the JSON spec at /api/docs-json (public, like /health). */
export function mountOpenApi(app: INestApplication): void {
  SwaggerModule.setup('api/docs', app, () => buildOpenApiDocument(app), { jsonDocumentUrl: 'api/docs-json' });
}

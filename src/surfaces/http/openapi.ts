import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { ErrorDto } from './dto/error.dto.js';

/** The OpenAPI document, generated from the controllers' and DTOs' decorators. */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Chat memory API')
    .setDescription(
      'Stores conversations and replays their recent history to an OpenAI-compatible model. ' +
        'Every route except /health needs "Authorization: Bearer <API key>" unless the server runs in single-user mode.',
    )
    .setVersion('0.1.0')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'API key', description: 'An API key from API_KEYS' })
    // Relative: the server that serves the document (what Swagger UI uses without a servers list).
    .addServer('/', 'This server')
    .addTag('chat', 'Send a message and get the reply, whole or streamed')
    .addTag('conversations', 'List, read, create, delete and regenerate conversations')
    .addTag('messages', 'Follow or stop a reply being generated')
    .addTag('state', "A conversation's session state")
    .addTag('agents', 'Named system prompts, model settings and tools for conversations')
    .addTag('usage', "The caller's token usage")
    .addTag('account', 'Everything of the caller: export it, or erase it')
    .addTag('health', 'Liveness and database check')
    .addGlobalResponse({ status: 503, description: 'The server is shutting down (Retry-After: 5); retry shortly', type: ErrorDto })
    .build();
  return SwaggerModule.createDocument(app, config, {
    operationIdFactory: (_controller, method) => method,
  });
}

/** Swagger UI at /api/docs and the JSON spec at /api/docs-json (public, like /health). */
export function mountOpenApi(app: INestApplication): void {
  SwaggerModule.setup('api/docs', app, () => buildOpenApiDocument(app), { jsonDocumentUrl: 'api/docs-json' });
}

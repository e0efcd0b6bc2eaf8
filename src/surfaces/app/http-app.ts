import type { DynamicModule, LoggerService } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { AppLogger } from '../../logging/app-logger.js';
import { ApiKeyAuthenticator } from '../../actor-auth/api-key-authenticator.js';
import { RequestAuthenticator } from '../../actor-auth/request-authenticator.js';
import { ERROR_FORMATS_SETTING, errorBody } from '../errors/error-body.js';
import type { AppConfig } from '../../config/app-config.js';
import { HttpDrain } from '../http/http-drain.js';
import { hostGuard } from '../http/hardening/host-guard.js';
import { allowLargeImportBodies, isAllowedLargeBody, isParsedJsonBody } from '../http/hardening/import-body.js';
import { authenticateBeforeBody } from '../http/hardening/authenticate-before-body.js';
import { BoundedValidationPipe } from '../http/hardening/bounded-validation-pipe.js';
import { createJsonBodyCheck } from '../http/hardening/json-body-check.js';
import { bodyShapeLimits } from '../http/hardening/json-shape.js';
import { requireJsonBodies } from '../http/hardening/json-content-type.js';
import { requestLog, requestScope } from '../http/hardening/request-log.js';
import { securityHeaders } from '../http/hardening/security-headers.js';
import { mountOpenApi } from '../http/openapi.js';
import { isMcpPath, mcpBodyErrors } from '../mcp/json-rpc-errors.js';
import { mcpOAuthRoutes } from '../mcp/oauth/mcp-oauth-routes.js';
import { MCP_ERROR_FORMAT, PUBLIC_BASE_URL_SETTING } from '../mcp/oauth/resource-metadata.js';
import { OPENAI_ERROR_FORMAT } from '../openai/openai-error.js';
import { OAuthService } from '../../oauth/oauth.service.js';

/**
 * Builds the whole HTTP application (not yet listening) around `root`, the application's
 * module (`AppModule.forRoot(config)`): every HTTP surface (REST, /v1, the UI stream, MCP, the
 * web page) composed into one Express app. This folder is the one place that may import each
 * surface, and no surface imports it. The composition root passes `root` in, so this does not
 * import the root; main.ts and the e2e tests both use it, so the tests run exactly what
 * production runs.
 */
export async function createHttpApp(
  root: DynamicModule,
  config: AppConfig,
  options: { logger?: false | LoggerService } = {},
): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(root, {
    bodyParser: false,
    logger:
      options.logger ??
      new AppLogger({ format: config.logFormat, level: config.logLevel, terminal: process.stdout.isTTY === true }),
  });
  // The error shapes of the protocols that have their own, for every answer on their paths (sendError).
  app.set(ERROR_FORMATS_SETTING, [OPENAI_ERROR_FORMAT, MCP_ERROR_FORMAT]);
  app.use(requestLog);
  // Before anything reads the body or answers: a foreign Host or Origin in single-user mode is refused.
  app.use(hostGuard(config, app.get(ApiKeyAuthenticator), { matches: isMcpPath, name: '/mcp' }));
  const drain = app.get(HttpDrain);
  drain.watch(app.getHttpServer());
  app.use(drain.middleware);
  app.use(securityHeaders);
  if (config.corsOrigins.length) {
    app.enableCors({ origin: [...config.corsOrigins], exposedHeaders: ['X-Request-Id', 'Retry-After'], maxAge: 600 });
  }
  // The OAuth server of /mcp: public, and its SDK handlers read their own form and JSON bodies.
  app.set(PUBLIC_BASE_URL_SETTING, config.publicBaseUrl);
  app.use(mcpOAuthRoutes(app.get(OAuthService), config.publicBaseUrl));
  // Before the body parser: an unknown caller's body is refused unread.
  app.use(authenticateBeforeBody(app));
  // An authenticated import may be as large as an export gets; the parser after it then skips the body.
  app.use(allowLargeImportBodies(app.get(RequestAuthenticator)));
  // Over the limit -> 413; malformed JSON -> 400 (Nest maps body-parser errors to HttpExceptions).
  // NUL in strings, absurd nesting and too many keys, items or values are refused before the parse, as a 400.
  // (Nest's type reserves `verify` for rawBody, which this application does not use.)
  const importLimit = Math.max(config.importBodyLimitBytes, config.bodyLimitBytes);
  const importCheck = { verify: createJsonBodyCheck(bodyShapeLimits({ ...config, bodyLimitBytes: importLimit })) };
  app.useBodyParser('json', { limit: importLimit, type: isAllowedLargeBody, ...importCheck });
  const check = { verify: createJsonBodyCheck(bodyShapeLimits(config)) };
  // Not an archive upload (POST /api/imports): that route reads its body as a stream, bounded itself.
  app.useBodyParser('json', { limit: config.bodyLimitBytes, type: isParsedJsonBody, ...check });
  // A /mcp body the parsers refuse is answered in JSON-RPC's terms (Parse error), as MCP clients expect.
  app.use(mcpBodyErrors);
  // A body in any other type gets a 415 that says so, not a complaint about missing fields.
  app.use(requireJsonBodies);
  // After the body parsers, whose stream callbacks run outside any request's async context.
  app.use(requestScope);
  app.set('x-powered-by', false);
  // Whose X-Forwarded-For is believed (req.ip): nobody's unless TRUST_PROXY names the proxies.
  app.set(
    'trust proxy',
    config.trustProxy === false || typeof config.trustProxy === 'number' ? config.trustProxy : [...config.trustProxy],
  );
  app.useGlobalPipes(new BoundedValidationPipe());
  answerClientErrorsWithJson(app.getHttpServer());
  app.enableShutdownHooks();
  mountOpenApi(app);
  return app;
}

/** How long a refused connection may take to receive its answer before it is cut anyway. */
const CLIENT_ERROR_LINGER_MS = 5_000;

/**
 * Requests Node's HTTP parser refuses before any handler runs (headers over 16 KB, a broken
 * request line, an unknown Expect, headers not complete within the server's headersTimeout)
 * still get the JSON error body; then the connection is destroyed, not only half-closed, so a
 * client that never closes its side (Slowloris) holds no descriptor.
 */
function answerClientErrorsWithJson(server: Server): void {
  const reply = (socket: Duplex, status: number, message: string) => {
    const body = JSON.stringify(errorBody(status, message));
    const answer = `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
    // A client that does not read cannot keep the socket either.
    const linger = setTimeout(() => socket.destroy(), CLIENT_ERROR_LINGER_MS).unref();
    socket.end(answer, () => {
      clearTimeout(linger);
      socket.destroy();
    });
  };
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (!socket.writable) return socket.destroy();
    if (error.code === 'HPE_HEADER_OVERFLOW') return reply(socket, 431, 'Request headers too large');
    if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return reply(socket, 408, 'The request did not arrive in time');
    reply(socket, 400, 'Malformed request');
  });
  server.on('checkExpectation', (_req: IncomingMessage, res: ServerResponse) => {
    res
      .writeHead(417, { 'Content-Type': 'application/json' })
      .end(JSON.stringify(errorBody(417, 'Only "Expect: 100-continue" is supported')));
  });
}

import { BadRequestException, ConsoleLogger, ValidationPipe, type LoggerService, type ValidationError } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { AppModule } from '../../app.module.js';
import { ApiKeyAuthenticator } from '../../actor-auth/api-key-authenticator.js';
import { errorBody } from './errors/error-body.js';
import type { AppConfig } from '../../config/app-config.js';
import { HttpDrain } from './http-drain.js';
import { hostGuard } from './hardening/host-guard.js';
import { allowLargeImportBodies, isAllowedLargeBody } from './hardening/import-body.js';
import { createBodyReviver } from './hardening/json-reviver.js';
import { requestLog } from './hardening/request-log.js';
import { securityHeaders } from './hardening/security-headers.js';
import { mountOpenApi } from './openapi.js';

/**
 * Builds the whole HTTP application (not yet listening). main.ts and the e2e tests both use
 * it, so the tests run exactly what production runs.
 */
export async function createHttpApp(config: AppConfig, options: { logger?: false | LoggerService } = {}): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), {
    bodyParser: false,
    ...(config.logFormat === 'json' ? { logger: new ConsoleLogger({ json: true }) } : {}),
    ...(options.logger !== undefined ? { logger: options.logger } : {}),
  });
  app.use(requestLog);
  // Before anything reads the body or answers: a foreign Host or Origin in single-user mode is refused.
  app.use(hostGuard(config, app.get(ApiKeyAuthenticator)));
  app.use(app.get(HttpDrain).middleware);
  app.use(securityHeaders);
  if (config.corsOrigins.length) {
    app.enableCors({ origin: [...config.corsOrigins], exposedHeaders: ['X-Request-Id', 'Retry-After'], maxAge: 600 });
  }
  // An authenticated import may be as large as an export gets; the parser after it then skips the body.
  app.use(allowLargeImportBodies(app.get(ApiKeyAuthenticator)));
  app.useBodyParser('json', { limit: Math.max(config.importBodyLimitBytes, config.bodyLimitBytes), type: isAllowedLargeBody, reviver: createBodyReviver() });
  // Over the limit -> 413; malformed JSON -> 400 (Nest maps body-parser errors to HttpExceptions).
  app.useBodyParser('json', {
    limit: config.bodyLimitBytes,
    type: ['application/json', 'application/merge-patch+json'],
    // NUL in strings and absurd nesting are refused here, as a 400, on every database alike.
    reviver: createBodyReviver(),
  });
  app.set('x-powered-by', false);
  // Whose X-Forwarded-For is believed (req.ip): nobody's unless TRUST_PROXY names the proxies.
  app.set('trust proxy', config.trustProxy === false || typeof config.trustProxy === 'number' ? config.trustProxy : [...config.trustProxy]);
  app.useGlobalPipes(
    new ValidationPipe({
      whitelist: true,
      forbidNonWhitelisted: true,
      transform: true,
      exceptionFactory: (errors) => new BadRequestException(flatten(errors)),
    }),
  );
  answerClientErrorsWithJson(app.getHttpServer());
  app.enableShutdownHooks();
  mountOpenApi(app);
  return app;
}

/** class-validator messages already name the property; nested ones get their parent's path. */
function flatten(errors: ValidationError[], parent = ''): string[] {
  return errors.flatMap((e) => [
    ...Object.values(e.constraints ?? {}).map((m) => (parent ? `${parent}.${m}` : m)),
    ...flatten(e.children ?? [], parent ? `${parent}.${e.property}` : e.property),
  ]);
}

/**
 * Requests Node's HTTP parser refuses before any handler runs (headers over 16 KB, a broken
 * request line, an unknown Expect) still get the JSON error body.
 */
function answerClientErrorsWithJson(server: Server): void {
  const reply = (socket: Duplex, status: number) => {
    const body = JSON.stringify(errorBody(status, status === 431 ? 'Request headers too large' : 'Malformed request'));
    socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  };
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (!socket.writable) return socket.destroy();
    reply(socket, error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400);
  });
  server.on('checkExpectation', (_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(417, { 'Content-Type': 'application/json' }).end(JSON.stringify(errorBody(417, 'Only "Expect: 100-continue" is supported')));
  });
}

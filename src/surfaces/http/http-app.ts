import { BadRequestException, ConsoleLogger, ValidationPipe, type LoggerService, type ValidationError } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from '../../app.module.js';
import type { AppConfig } from '../../config/app-config.js';
import { HttpDrain } from './http-drain.js';
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
  app.use(app.get(HttpDrain).middleware);
  app.use(securityHeaders);
  if (config.corsOrigins.length) {
    app.enableCors({ origin: [...config.corsOrigins], exposedHeaders: ['X-Request-Id', 'Retry-After'], maxAge: 600 });
  }
  // Over the limit -> 413; malformed JSON -> 400 (Nest maps body-parser errors to HttpExceptions).
  app.useBodyParser('json', {
    limit: config.bodyLimitBytes,
    type: ['application/json', 'application/merge-patch+json'],
    // NUL in strings and absurd nesting are refused here, as a 400, on every database alike.
    reviver: createBodyReviver(),
  });
  app.set('x-powered-by', false);
  app.set('trust proxy', false);
  app.useGlobalPipes(
    new ValidationPipe({
      whitelist: true,
      forbidNonWhitelisted: true,
      transform: true,
      exceptionFactory: (errors) => new BadRequestException(flatten(errors)),
    }),
  );
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

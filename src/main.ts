import 'reflect-metadata';
import cluster from 'node:cluster';
import { createServer } from 'node:net';
import { Logger } from '@nestjs/common';
import { loadConfig } from './config/app-config.js';
import { ConfigError } from './config/config-error.js';
import { ApiKeysService } from './actor-auth/api-keys.service.js';
import { AppModule } from './app.module.js';
import { createHttpApp } from './surfaces/app/http-app.js';
import { runWorkers } from './worker-processes.js';

async function bootstrap(): Promise<void> {
  const logger = new Logger('Bootstrap');
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      logger.error(`Configuration error: ${error.message}`);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }
  // Before anything starts (migrations, the bot, the workers): a taken port fails in a moment and in one line.
  if (cluster.isPrimary) {
    await portIsFree(config.host, config.port).catch((error: unknown) =>
      exitOnListenError(error, config.host, config.port),
    );
  }
  if (config.workers > 1 && cluster.isPrimary) return runWorkers(config.workers);
  const app = await createHttpApp(AppModule.forRoot(config), config).catch(exitOnConfigError);
  // Nest closes the app on these signals (turns in flight finish first); this bounds the wait.
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      logger.log(`Received ${signal}: shutting down (replies being generated finish first, up to SHUTDOWN_GRACE_MS)`);
      setTimeout(() => {
        logger.error(`Shutdown did not finish within SHUTDOWN_GRACE_MS (${config.shutdownGraceMs} ms); exiting`);
        process.exit(1);
      }, config.shutdownGraceMs + 2_000).unref();
    });
  }
  await app
    .listen(config.port, config.host)
    .catch((error: unknown) => exitOnListenError(error, config.host, config.port));
  const keys = app.get(ApiKeysService);
  const storedKeys = (await keys.list()).filter((k) => !k.revokedAt).length;
  const mode =
    config.apiKeys.length + storedKeys > 0
      ? `${config.apiKeys.length} API key(s) from API_KEYS and ${storedKeys} made with npm run keys`
      : 'single-user mode (no API key: every request is api:owner, loopback only)';
  // The one start-up line at the default level: where it listens (the real port, PORT=0 too), the model, the keys.
  const address = app.getHttpServer().address();
  const port = address && typeof address === 'object' ? address.port : config.port;
  const model =
    config.llm.provider === 'echo'
      ? 'the offline echo model'
      : `model ${config.llm.model} at ${config.llm.baseUrl ?? 'the OpenAI API'}`;
  logger.log(
    `Listening on http://${config.host}:${port} with ${model} and ${mode}; web page at /, API docs at /api/docs`,
  );
}

/** A configuration problem found while starting (e.g. no API key on a public address) ends the process cleanly. */
function exitOnConfigError(error: unknown): never {
  if (error instanceof ConfigError) {
    new Logger('Bootstrap').error(`Configuration error: ${error.message}`);
    process.exit(78);
  }
  throw error;
}

/** Binds host:port and lets go at once; rejects with the error listening would meet. */
function portIsFree(host: string, port: number): Promise<void> {
  if (port === 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(port, host, () => probe.close(() => resolve()));
  });
}

/** A port that is taken (or not ours to open) is an operator's problem: one line, not a stack trace. */
function exitOnListenError(error: unknown, host: string, port: number): never {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL') {
    const why =
      code === 'EADDRINUSE'
        ? 'the port is in use (another process listens there, perhaps this service started earlier)'
        : code === 'EACCES'
          ? 'permission denied (ports below 1024 need privileges)'
          : 'the address is not one of this machine (HOST)';
    new Logger('Bootstrap').error(
      `Cannot listen on ${host}:${port}: ${why}. Stop the other process or choose another port with PORT=...`,
    );
    process.exit(1);
  }
  return exitOnConfigError(error);
}

void bootstrap();

import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { loadConfig } from './config/app-config.js';
import { ConfigError } from './config/config-error.js';
import { ApiKeysService } from './actor-auth/api-keys.service.js';
import { AppModule } from './app.module.js';
import { createHttpApp } from './surfaces/http/http-app.js';

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
  const app = await createHttpApp(AppModule.forRoot(config), config).catch(exitOnConfigError);
  // Nest closes the app on these signals (turns in flight finish first); this bounds the wait.
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      setTimeout(() => {
        logger.error(`Shutdown did not finish within SHUTDOWN_GRACE_MS (${config.shutdownGraceMs} ms); exiting`);
        process.exit(1);
      }, config.shutdownGraceMs + 2_000).unref();
    });
  }
  await app.listen(config.port, config.host).catch(exitOnConfigError);
  const keys = app.get(ApiKeysService);
  const storedKeys = (await keys.list()).filter((k) => !k.revokedAt).length;
  const mode =
    config.apiKeys.length + storedKeys > 0
      ? `${config.apiKeys.length} API key(s) from API_KEYS and ${storedKeys} made with npm run keys`
      : 'single-user mode (no API key: every request is api:owner, loopback only)';
  // The one start-up line at the default level: where it listens (the real port, PORT=0 too), the model, the keys.
  const address = app.getHttpServer().address();
  const port = address && typeof address === 'object' ? address.port : config.port;
  const model = config.llm.provider === 'echo' ? 'the offline echo model' : `model ${config.llm.model} at ${config.llm.baseUrl ?? 'the OpenAI API'}`;
  logger.log(`Listening on http://${config.host}:${port} with ${model} and ${mode}; web page at /, API docs at /api/docs`);
}

/** A configuration problem found while starting (e.g. no API key on a public address) ends the process cleanly. */
function exitOnConfigError(error: unknown): never {
  if (error instanceof ConfigError) {
    new Logger('Bootstrap').error(`Configuration error: ${error.message}`);
    process.exit(78);
  }
  throw error;
}

void bootstrap();

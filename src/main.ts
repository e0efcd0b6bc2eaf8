import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { ConfigError, loadConfig } from './config/app-config.js';
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
  const app = await createHttpApp(config);
  // Nest closes the app on these signals (turns in flight finish first); this bounds the wait.
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      setTimeout(() => {
        logger.error(`Shutdown did not finish within SHUTDOWN_GRACE_MS (${config.shutdownGraceMs} ms); exiting`);
        process.exit(1);
      }, config.shutdownGraceMs + 2_000).unref();
    });
  }
  await app.listen(config.port, config.host);
  const mode = config.apiKeys.length
    ? `${config.apiKeys.length} API key(s)`
    : 'single-user mode (no API_KEYS: every request is api:owner, loopback only)';
  logger.log(`Listening on http://${config.host}:${config.port} with ${mode}; API docs at /api/docs`);
}

void bootstrap();

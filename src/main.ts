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
  await app.listen(config.port, config.host);
  const mode = config.apiKeys.length
    ? `${config.apiKeys.length} API key(s)`
    : 'single-user mode (no API_KEYS: every request is api:owner, loopback only)';
  logger.log(`Listening on http://${config.host}:${config.port} with ${mode}; API docs at /api/docs`);
}

void bootstrap();

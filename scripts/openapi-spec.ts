import 'reflect-metadata';
import { AppModule } from '../src/app.module.js';
import { loadConfig } from '../src/config/app-config.js';
import { createHttpApp } from '../src/surfaces/app/http-app.js';
import { buildOpenApiDocument } from '../src/surfaces/http/openapi.js';

/**
 * docs/openapi.json as it should be: the document built from the decorators of the real
 * application (in-memory SQLite, echo model, no port), with every object's keys sorted so
 * that the text only changes when the API does.
 */
export async function buildOpenApiSpec(): Promise<string> {
  // Only what the document depends on: no API keys, no model server, no Telegram, no file.
  const config = loadConfig({ DATABASE_URL: 'sqlite::memory:', LLM_MODEL: 'echo' });
  const app = await createHttpApp(AppModule.forRoot(config), config, { logger: false });
  try {
    await app.init();
    return `${JSON.stringify(sortKeys(buildOpenApiDocument(app)), null, 2)}\n`;
  } finally {
    await app.close();
  }
}

/** A copy with the keys of every object in code point order (arrays keep their order). */
export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries.map(([k, v]) => [k, sortKeys(v)]));
}

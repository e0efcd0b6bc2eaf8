import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, paths } from './schema.js';

export type { components, operations, paths } from './schema.js';
export { readEvents, type StreamEvent } from './events.js';

/** The request and response bodies of the API, by schema name (e.g. `Schemas['ChatResponseDto']`). */
export type Schemas = components['schemas'];

/** An openapi-fetch client typed by the API's paths: `client.POST('/api/chat', { body })`. */
export type ChatMemoryClient = Client<paths>;

export interface ChatMemoryClientOptions extends Omit<ClientOptions, 'baseUrl'> {
  /** Where the server listens, e.g. `http://127.0.0.1:3000` (no `/api`). */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <apiKey>`; omit in single-user mode. */
  apiKey?: string;
}

export function createChatMemoryClient({ baseUrl, apiKey, headers, ...options }: ChatMemoryClientOptions): ChatMemoryClient {
  return createClient<paths>({
    ...options,
    baseUrl: baseUrl.replace(/\/+$/, ''),
    headers: { ...(apiKey ? { Authorization: `Bearer ${apiKey}` } : {}), ...(headers as Record<string, string> | undefined) },
  });
}

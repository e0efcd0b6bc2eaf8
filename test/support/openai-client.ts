import OpenAI, { APIError } from 'openai';
import { ConversationCursorPage } from 'openai/pagination';
import type { Conversation } from 'openai/resources/conversations/conversations';

/** The official SDK pointed at a test app's /v1, as an app written against OpenAI would be. */
export function openAiClient(baseUrl: string, apiKey: string): OpenAI {
  return new OpenAI({ baseURL: `${baseUrl}/v1`, apiKey, maxRetries: 0, timeout: 30_000 });
}

/** GET /v1/conversations (ours; the SDK has no method for it) through the SDK's own cursor paging. */
export function listConversations(client: OpenAI, query: { limit?: number; order?: 'asc' | 'desc' } = {}) {
  return client.getAPIList<Conversation, ConversationCursorPage<Conversation>>(
    '/conversations',
    ConversationCursorPage<Conversation>,
    { query },
  );
}

/** The SDK error a call rejects with (fails the test if it succeeds or throws something else). */
export async function apiError(call: Promise<unknown>): Promise<APIError> {
  const outcome = await call.then(
    () => new Error('expected the call to fail'),
    (error: unknown) => error,
  );
  if (!(outcome instanceof APIError)) throw outcome;
  return outcome;
}

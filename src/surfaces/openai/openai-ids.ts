import { OpenAiError } from './openai-error.js';

/**
 * OpenAI-style ids over our own: a conversation `conv_<id>`, a message item `msg_<id>`, a
 * reply as a response `resp_<id>`, a function call `fc_<message id>_<n>` (the n-th call a reply
 * asked for), a function output `fco_<message id>`. Our bare ids are accepted too, so an id
 * read on the REST API works here.
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const conversationId = (id: string) => `conv_${id}`;
export const messageItemId = (id: string) => `msg_${id}`;
export const responseId = (id: string) => `resp_${id}`;
export const functionCallItemId = (messageId: string, index: number) => `fc_${messageId}_${index}`;
export const functionOutputItemId = (messageId: string) => `fco_${messageId}`;

/** Our id from `conv_<id>` or `<id>`; null when it is neither (answered as unknown). */
export function parseConversationId(id: string): string | null {
  return bare(id, 'conv_');
}

function parseResponseId(id: string): string | null {
  return bare(id, 'resp_');
}

/** A message, and for a function call which of its calls. */
export function parseItemId(id: string): { messageId: string; callIndex?: number } | null {
  const call = /^fc_(.+)_(\d{1,3})$/.exec(id);
  if (call && UUID.test(call[1])) return { messageId: call[1].toLowerCase(), callIndex: Number(call[2]) };
  const messageId = bare(id, 'msg_') ?? bare(id, 'fco_');
  return messageId ? { messageId } : null;
}

function bare(id: string, prefix: string): string | null {
  const rest = id.startsWith(prefix) ? id.slice(prefix.length) : id;
  return UUID.test(rest) ? rest.toLowerCase() : null;
}

/** Our id of a conversation the client names (at `param`); an id of no shape of ours is unknown, as any other. */
export function requiredConversationId(id: string, param: string | null = null): string {
  const parsed = parseConversationId(id);
  if (!parsed) throw OpenAiError.notFound('Conversation', id, param);
  return parsed;
}

export function requiredResponseId(id: string, param: string | null = null): string {
  const parsed = parseResponseId(id);
  if (!parsed) throw OpenAiError.notFound('Response', id, param);
  return parsed;
}

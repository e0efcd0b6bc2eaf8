import { createHash } from 'node:crypto';
import { timeOrderedId } from '../../common/time-ordered-id.js';
import type { ConversationRow, MessageRow } from '../../conversations/whole-conversations.repository.js';
import { MAIN_THREAD } from '../../conversations/thread.entity.js';
import { TITLE_MAX_CHARS } from '../../conversations/title.js';
import type { ArchiveConversation, ArchiveSource } from './archive.types.js';

/** The `model` column's width. */
const MODEL_MAX_CHARS = 200;

const SOURCE_NAMES: Record<ArchiveSource, string> = { chatgpt: 'ChatGPT', 'open-webui': 'Open WebUI' };

/** The rows one archived conversation is stored as: the conversation, its main thread, and its tree. */
interface ArchiveRows {
  conversation: ConversationRow;
  thread: { conversationId: string; name: string; systemPrompt: string | null; createdAt: Date; updatedAt: Date };
  messages: MessageRow[];
}

/**
 * An archived conversation as rows of `actor`, with new ids: every message in the main thread
 * with its parent (the reader gives parents first, so `seq` follows that order and the active
 * leaf is the last of its path), the path from the root to `activeLeafId` on the active path,
 * the source's times, and its system prompt as the thread's. A reply that failed in the
 * source tool keeps its text with a stored error saying so. The conversation's `updatedAt` is the
 * source's (its latest message, never later than `importedAt`), so the listing keeps the order the
 * user knows; the thread's `updatedAt` is `importedAt`, which RETENTION_DAYS counts from (see
 * stale-conversations.repository.ts): an old archive is not deleted by the next sweep.
 */
export function archiveRows(
  conversation: ArchiveConversation,
  actor: string,
  importedAt: Date,
  conversationId: string = timeOrderedId(),
): ArchiveRows {
  const newIds = new Map(conversation.messages.map((m) => [m.id, importedMessageId(conversationId, m.id)] as const));
  const byId = new Map(conversation.messages.map((m) => [m.id, m] as const));
  const onPath = new Set<string>();
  for (let at = byId.get(conversation.activeLeafId); at; at = at.parentId === null ? undefined : byId.get(at.parentId))
    onPath.add(at.id);
  const source = SOURCE_NAMES[conversation.source];
  const messages = conversation.messages.map((m, i): MessageRow => ({
    id: newIds.get(m.id)!,
    conversationId,
    seq: i + 1,
    thread: MAIN_THREAD,
    role: m.role,
    content: m.content,
    tokens: null,
    status: m.status,
    model: m.model === null ? null : Array.from(m.model).slice(0, MODEL_MAX_CHARS).join(''),
    promptTokens: null,
    completionTokens: null,
    versions: null,
    toolCalls: null,
    errorCode: m.status === 'failed' ? 'model_unavailable' : null,
    errorMessage: m.status === 'failed' ? `The reply had failed in ${source}` : null,
    createdAt: m.createdAt,
    parentId: m.parentId === null ? null : (newIds.get(m.parentId) ?? null),
    onPath: onPath.has(m.id),
  }));
  return {
    conversation: {
      id: conversationId,
      actor,
      title:
        Array.from(conversation.title.trim()).slice(0, TITLE_MAX_CHARS).join('').trimEnd() || `${source} conversation`,
      agentId: null,
      state: {},
      archived: false,
      pinned: false,
      lastSeq: messages.length,
      createdAt: conversation.createdAt,
      updatedAt: lastActivity(conversation, importedAt),
    },
    thread: {
      conversationId,
      name: MAIN_THREAD,
      systemPrompt: conversation.systemPrompt,
      createdAt: conversation.createdAt,
      updatedAt: importedAt,
    },
    messages,
  };
}

/**
 * The id a message of the file gets in the conversation `conversationId`: derived from both, so a
 * later import of the same conversation (a newer export) tells the messages it has from the new ones.
 */
export function importedMessageId(conversationId: string, sourceMessageId: string): string {
  const hex = createHash('sha256').update(`${conversationId}\0${sourceMessageId}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** When the conversation was last used in the source: its update time or its latest message, whichever is later, but not in the future. */
function lastActivity(conversation: ArchiveConversation, importedAt: Date): Date {
  let last = Math.max(conversation.updatedAt.getTime(), conversation.createdAt.getTime());
  for (const m of conversation.messages) last = Math.max(last, m.createdAt.getTime());
  return new Date(Math.min(last, importedAt.getTime()));
}

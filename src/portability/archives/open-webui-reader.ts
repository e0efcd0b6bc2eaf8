import {
  type ArchiveEntry,
  type ArchiveLimits,
  type ArchiveMessageStatus,
  type DroppedParts,
  noDroppedParts,
} from './archive.types.js';
import { assembleConversation } from './assemble-conversation.js';
import { epochMs, idOrNull, isObject, type JsonObject, placeholderFor, stringOrNull } from './archive-values.js';
import type { SourceNode } from './message-tree.js';

/** The chat body of an element: `{ chat: {...} }` as exported, or a bare chat object. */
function chatOf(value: JsonObject): JsonObject | null {
  if (isObject(value.chat)) return value.chat;
  if (isObject(value.history)) return value;
  return null;
}

/** Keys that mark an element of an Open WebUI export, even a damaged one. */
export function looksLikeOpenWebUi(value: JsonObject): boolean {
  if ('mapping' in value) return false;
  const chat = chatOf(value);
  if (chat) return 'history' in chat || 'messages' in chat || 'models' in chat;
  return 'chat' in value && ('user_id' in value || 'created_at' in value);
}

// Open WebUI writes reasoning and tool calls into the reply as <details> blocks.
const REASONING_BLOCK = /<details\s+type="reasoning"[^>]*>([\s\S]*?)<\/details>/g;
const TOOL_BLOCK = /<details\s+type="tool_calls"[^>]*>[\s\S]*?<\/details>/g;

/**
 * Reads one chat of an Open WebUI export. The tree is `chat.history.messages` (each with `parentId`,
 * several roots when the first question was edited) and `currentId` the active leaf; older chats have
 * only the linear `chat.messages`, read as a chain.
 */
export function readOpenWebUiChat(raw: unknown, index: number, limits: ArchiveLimits): ArchiveEntry {
  if (!isObject(raw)) return skip(index, null, null, 'not an object');
  const chat = chatOf(raw);
  const sourceId = idOrNull(raw.id) ?? (chat ? idOrNull(chat.id) : null);
  const title = stringOrNull(raw.title) ?? (chat ? stringOrNull(chat.title) : null);
  if (!chat) return skip(index, sourceId, title, 'no "chat" in this element');
  if (sourceId === null) return skip(index, null, title, 'no chat id');

  const dropped = noDroppedParts();
  const history = isObject(chat.history) ? chat.history : null;
  const nodes: SourceNode[] = [];
  const systemTexts: string[] = [];
  let activeId: string | null = null;
  let systemPrompt = stringOrNull(isObject(chat.params) ? chat.params.system : undefined) ?? stringOrNull(chat.system);
  const model = Array.isArray(chat.models) ? stringOrNull(chat.models[0]) : null;

  if (history && isObject(history.messages)) {
    let order = 0;
    for (const key in history.messages) {
      const value = history.messages[key];
      if (!isObject(value)) return skip(index, sourceId, title, `message ${JSON.stringify(key)} is not an object`);
      const id = idOrNull(value.id) ?? key;
      const parent = value.parentId;
      if (parent != null && idOrNull(parent) === null)
        return skip(index, sourceId, title, `message ${JSON.stringify(id)} has an invalid parentId`);
      nodes.push(
        readMessage(value, id, parent == null ? null : idOrNull(parent), order++, model, dropped, systemTexts),
      );
    }
    activeId = idOrNull(history.currentId);
  } else if (Array.isArray(chat.messages)) {
    // The linear shape: a chain in array order unless the messages name their parents.
    let previous: string | null = null;
    for (let i = 0; i < chat.messages.length; i++) {
      const value = chat.messages[i];
      if (!isObject(value)) return skip(index, sourceId, title, `message ${i} is not an object`);
      const id = idOrNull(value.id) ?? `${i}`;
      const parentId = 'parentId' in value ? idOrNull(value.parentId) : previous;
      nodes.push(readMessage(value, id, parentId, i, model, dropped, systemTexts));
      previous = id;
    }
    activeId = previous;
  } else {
    return skip(index, sourceId, title, 'no "chat.history" (the message tree) in this chat');
  }

  // A system message is the prompt when the chat has none of its own; further ones are counted.
  systemPrompt ??= systemTexts.shift() ?? null;
  dropped.hiddenMessages += systemTexts.length;

  return assembleConversation({
    source: 'open-webui',
    index,
    sourceId,
    title,
    createdMs: epochMs(raw.created_at) ?? epochMs(chat.timestamp),
    updatedMs: epochMs(raw.updated_at),
    systemPrompt: systemPrompt && systemPrompt.trim() !== '' ? systemPrompt.trim() : null,
    nodes,
    activeId,
    dropped,
    limits,
  });
}

function skip(index: number, sourceId: string | null, title: string | null, reason: string): ArchiveEntry {
  return { kind: 'skipped', skipped: { index, sourceId, title, reason } };
}

function readMessage(
  value: JsonObject,
  id: string,
  parentId: string | null,
  order: number,
  chatModel: string | null,
  dropped: DroppedParts,
  systemTexts: string[],
): SourceNode {
  const role = stringOrNull(value.role);
  const time = epochMs(value.timestamp);
  const raw = typeof value.content === 'string' ? value.content : '';
  if (role !== 'user' && role !== 'assistant') {
    if (role === 'system' && raw.trim() !== '') systemTexts.push(raw);
    else if (raw.trim() !== '') dropped.hiddenMessages++;
    return { id, parentId, message: null, time, order };
  }

  const reasoning: string[] = [];
  let content = raw.replace(REASONING_BLOCK, (_block, inner: string) => {
    const text = inner
      .replace(/<summary>[\s\S]*?<\/summary>/, '')
      .split('\n')
      .map((line) => line.replace(/^>\s?/, ''))
      .join('\n')
      .trim();
    if (text !== '') reasoning.push(text);
    return '';
  });
  content = content.replace(TOOL_BLOCK, () => {
    dropped.toolMessages++;
    return '';
  });
  content = content.trim();

  let images = 0;
  let files = 0;
  if (Array.isArray(value.files)) {
    for (const file of value.files) {
      if (isObject(file) && file.type === 'image') images++;
      else files++;
    }
  }
  dropped.images += images;
  dropped.files += files;
  if (content === '') {
    // An empty reply (or one that only failed) has nothing to show.
    if (role === 'user' && images + files > 0) content = placeholderFor(images, files);
    else return { id, parentId, message: null, time, order };
  }
  return {
    id,
    parentId,
    time,
    order,
    message: {
      role,
      content,
      reasoning: reasoning.length > 0 ? reasoning.join('\n\n') : null,
      createdAt: new Date(time ?? 0),
      model: role === 'assistant' ? (stringOrNull(value.model) ?? chatModel) : null,
      status: role === 'assistant' ? statusOf(value) : 'complete',
    },
  };
}

function statusOf(value: JsonObject): ArchiveMessageStatus {
  if (value.error !== undefined && value.error !== null && value.error !== false) return 'failed';
  if (value.done === false) return 'cancelled';
  return 'complete';
}

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

/** Keys that mark an element of a ChatGPT conversations.json, even a damaged one. */
export function looksLikeChatGpt(value: JsonObject): boolean {
  return 'mapping' in value || 'current_node' in value || ('conversation_id' in value && 'create_time' in value);
}

interface ReadState {
  dropped: DroppedParts;
  systemPrompt: string | null;
}

/**
 * Reads one conversation of a ChatGPT export. The mapping is a tree of nodes; a node's message may be
 * absent (the root), hidden (system and context nodes), a tool exchange, reasoning, or a visible turn.
 * Hidden nodes are not messages: their children attach to the nearest visible ancestor. A code run
 * (the assistant's `code` to a tool, then the tool's `execution_output`) is folded into the next reply
 * as fenced blocks; reasoning (`thoughts`) goes to that reply's `reasoning`; other tool traffic is counted.
 */
export function readChatGptConversation(raw: unknown, index: number, limits: ArchiveLimits): ArchiveEntry {
  if (!isObject(raw)) return skip(index, null, null, 'not an object');
  const sourceId = idOrNull(raw.conversation_id) ?? idOrNull(raw.id);
  const title = stringOrNull(raw.title);
  const mapping = raw.mapping;
  if (!isObject(mapping)) return skip(index, sourceId, title, 'no "mapping" (the message tree) in this conversation');

  const state: ReadState = { dropped: noDroppedParts(), systemPrompt: null };
  const nodes: SourceNode[] = [];
  let order = 0;
  for (const key in mapping) {
    const value = mapping[key];
    if (!isObject(value)) return skip(index, sourceId, title, `node ${JSON.stringify(key)} is not an object`);
    const id = idOrNull(value.id) ?? key;
    const parent = value.parent;
    if (parent !== null && parent !== undefined && idOrNull(parent) === null) {
      return skip(index, sourceId, title, `node ${JSON.stringify(id)} has an invalid parent`);
    }
    nodes.push({
      id,
      parentId: parent == null ? null : idOrNull(parent),
      order: order++,
      ...readNode(value.message, state),
    });
  }
  if (sourceId === null) return skip(index, null, title, 'no conversation id');
  return assembleConversation({
    source: 'chatgpt',
    index,
    sourceId,
    title,
    createdMs: epochMs(raw.create_time),
    updatedMs: epochMs(raw.update_time),
    systemPrompt: state.systemPrompt,
    nodes,
    activeId: idOrNull(raw.current_node),
    dropped: state.dropped,
    limits,
  });
}

function skip(index: number, sourceId: string | null, title: string | null, reason: string): ArchiveEntry {
  return { kind: 'skipped', skipped: { index, sourceId, title, reason } };
}

type NodeBody = Pick<SourceNode, 'message' | 'time' | 'carryText' | 'carryReasoning'>;

function readNode(rawMessage: unknown, state: ReadState): NodeBody {
  if (!isObject(rawMessage)) return { message: null, time: null };
  const author = isObject(rawMessage.author) ? rawMessage.author : {};
  const role = stringOrNull(author.role);
  const content = isObject(rawMessage.content) ? rawMessage.content : {};
  const contentType = stringOrNull(content.content_type) ?? 'text';
  const metadata = isObject(rawMessage.metadata) ? rawMessage.metadata : {};
  const recipient = stringOrNull(rawMessage.recipient) ?? 'all';
  const time = epochMs(rawMessage.create_time) ?? epochMs(rawMessage.update_time);
  const hidden: NodeBody = { message: null, time };

  if (contentType === 'user_editable_context') {
    state.systemPrompt ??= joinNonEmpty([content.user_profile, content.user_instructions]);
    return hidden;
  }
  // Older exports: custom instructions as a hidden system message.
  if (isObject(metadata.user_context_message_data) || metadata.is_user_system_message === true) {
    const data = isObject(metadata.user_context_message_data) ? metadata.user_context_message_data : {};
    state.systemPrompt ??=
      joinNonEmpty([data.about_user_message, data.about_model_message]) ?? partsText(content, state.dropped);
    return hidden;
  }
  if (role === 'tool') return readToolNode(content, contentType, state.dropped, time);
  if (role === 'assistant' && recipient !== 'all') {
    // The assistant addressing a tool: keep code that was run, count the other calls.
    const code = stringOrNull(content.text);
    if (contentType === 'code' && code && code.trim() !== '') {
      const language = stringOrNull(content.language);
      const fence = language && language !== 'unknown' ? language : recipient === 'python' ? 'python' : '';
      return { ...hidden, carryText: `\`\`\`${fence}\n${code}\n\`\`\`` };
    }
    state.dropped.toolMessages++;
    return hidden;
  }
  if (contentType === 'thoughts') {
    const thoughts = Array.isArray(content.thoughts) ? content.thoughts : [];
    const text = joinNonEmpty(thoughts.map((t) => (isObject(t) ? joinNonEmpty([t.summary, t.content]) : null)));
    return text ? { ...hidden, carryReasoning: text } : hidden;
  }
  // "Thought for 12 seconds": a label, not content.
  if (contentType === 'reasoning_recap') return hidden;
  if (
    (role !== 'user' && role !== 'assistant') ||
    metadata.is_visually_hidden_from_conversation === true ||
    contentType === 'model_editable_context'
  ) {
    const text =
      contentType === 'model_editable_context'
        ? joinNonEmpty([content.model_set_context])
        : partsText(content, noDroppedParts());
    if (text && text.trim() !== '') state.dropped.hiddenMessages++;
    return hidden;
  }

  const counts = { images: 0, files: 0 };
  let text = visibleText(content, contentType, state.dropped, counts);
  if (role === 'user' && Array.isArray(metadata.attachments)) {
    // Uploaded files: their content is not in conversations.json.
    for (const attachment of metadata.attachments) {
      const mime = isObject(attachment)
        ? (stringOrNull(attachment.mime_type) ?? stringOrNull(attachment.mimeType) ?? '')
        : '';
      if (!mime.startsWith('image/')) counts.files++;
    }
  }
  state.dropped.images += counts.images;
  state.dropped.files += counts.files;
  if (text.trim() === '') {
    if (role === 'user' && counts.images + counts.files > 0) text = placeholderFor(counts.images, counts.files);
    else return hidden;
  }
  return {
    message: {
      role,
      content: text,
      reasoning: null,
      createdAt: new Date(time ?? 0),
      model:
        role === 'assistant' ? (stringOrNull(metadata.model_slug) ?? stringOrNull(metadata.default_model_slug)) : null,
      status: role === 'assistant' ? statusOf(stringOrNull(rawMessage.status), metadata) : 'complete',
    },
    time,
  };
}

function readToolNode(content: JsonObject, contentType: string, dropped: DroppedParts, time: number | null): NodeBody {
  if (contentType === 'execution_output') {
    const output = stringOrNull(content.text);
    if (output && output.trim() !== '') return { message: null, time, carryText: `Output:\n\`\`\`\n${output}\n\`\`\`` };
    return { message: null, time };
  }
  const counts = { images: 0, files: 0 };
  if (contentType === 'multimodal_text') visibleText(content, contentType, noDroppedParts(), counts);
  if (counts.images > 0) dropped.images += counts.images;
  else dropped.toolMessages++;
  return { message: null, time };
}

function statusOf(status: string | null, metadata: JsonObject): ArchiveMessageStatus {
  const finish = isObject(metadata.finish_details) ? stringOrNull(metadata.finish_details.type) : null;
  if (status && status.includes('error')) return 'failed';
  if (
    finish === 'interrupted' ||
    status === 'in_progress' ||
    status === 'finished_partial_completion' ||
    metadata.is_complete === false
  ) {
    return 'cancelled';
  }
  return 'complete';
}

function visibleText(
  content: JsonObject,
  contentType: string,
  dropped: DroppedParts,
  counts: { images: number; files: number },
): string {
  if (contentType === 'code') {
    const code = stringOrNull(content.text) ?? '';
    const language = stringOrNull(content.language);
    return code.trim() === '' ? '' : `\`\`\`${language && language !== 'unknown' ? language : ''}\n${code}\n\`\`\``;
  }
  if (!Array.isArray(content.parts)) {
    const text = stringOrNull(content.text) ?? stringOrNull(content.result);
    if (text === null) dropped.other++;
    return text ?? '';
  }
  const texts: string[] = [];
  for (const part of content.parts) {
    if (typeof part === 'string') {
      if (part !== '') texts.push(part);
      continue;
    }
    const type = isObject(part) ? stringOrNull(part.content_type) : null;
    if (type === 'image_asset_pointer') counts.images++;
    else if (type === 'audio_transcription' && isObject(part) && typeof part.text === 'string') texts.push(part.text);
    else if (
      type === 'audio_asset_pointer' ||
      type === 'real_time_user_audio_video_asset_pointer' ||
      type === 'video_container_asset_pointer'
    ) {
      counts.files++;
    } else if (isObject(part) && typeof part.text === 'string') texts.push(part.text);
    else dropped.other++;
  }
  return texts.join('\n\n');
}

function partsText(content: JsonObject, dropped: DroppedParts): string | null {
  const text = visibleText(content, stringOrNull(content.content_type) ?? 'text', dropped, { images: 0, files: 0 });
  return text.trim() === '' ? null : text;
}

function joinNonEmpty(values: unknown[]): string | null {
  const texts = values.filter((v): v is string => typeof v === 'string' && v.trim() !== '').map((v) => v.trim());
  return texts.length === 0 ? null : texts.join('\n\n');
}

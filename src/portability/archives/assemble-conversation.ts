import type { ArchiveEntry, ArchiveLimits, ArchiveSource, DroppedParts } from './archive.types.js';
import { fallbackTitle } from './archive-values.js';
import { buildMessageTree, type SourceNode } from './message-tree.js';

interface ConversationParts {
  source: ArchiveSource;
  index: number;
  sourceId: string;
  title: string | null;
  createdMs: number | null;
  updatedMs: number | null;
  systemPrompt: string | null;
  nodes: SourceNode[];
  activeId: string | null;
  dropped: DroppedParts;
  limits: ArchiveLimits;
}

/** The format-independent half of a reader: validates the tree and fills in what the source left out. */
export function assembleConversation(parts: ConversationParts): ArchiveEntry {
  const title = parts.title !== null && parts.title.trim() !== '' ? parts.title.trim() : null;
  const built = buildMessageTree(parts.nodes, parts.activeId, parts.limits);
  if (!built.ok)
    return { kind: 'skipped', skipped: { index: parts.index, sourceId: parts.sourceId, title, reason: built.reason } };
  const { messages, activeLeafId, branchPoints, notes, unplacedText, unplacedReasoning } = built.tree;

  let earliest = Infinity;
  let latest = -Infinity;
  for (const message of messages) {
    const t = message.createdAt.getTime();
    if (t > 0) {
      earliest = Math.min(earliest, t);
      latest = Math.max(latest, t);
    }
  }
  const createdMs = parts.createdMs ?? (Number.isFinite(earliest) ? earliest : 0);
  const updatedMs = parts.updatedMs ?? (Number.isFinite(latest) ? latest : createdMs);
  // A message without a time takes its parent's (parents come first), or the conversation's.
  const timeOf = new Map<string, Date>();
  for (const message of messages) {
    if (message.createdAt.getTime() <= 0) {
      message.createdAt = new Date(message.parentId !== null ? timeOf.get(message.parentId)!.getTime() : createdMs);
    }
    timeOf.set(message.id, message.createdAt);
  }

  const dropped = { ...parts.dropped };
  dropped.toolMessages += unplacedText;
  dropped.reasoning += unplacedReasoning;
  return {
    kind: 'conversation',
    index: parts.index,
    conversation: {
      source: parts.source,
      sourceId: parts.sourceId,
      title: title ?? fallbackTitle(messages.find((m) => m.role === 'user')?.content),
      createdAt: new Date(createdMs),
      updatedAt: new Date(Math.max(updatedMs, createdMs)),
      systemPrompt: parts.systemPrompt,
      messages,
      activeLeafId,
      branchPoints,
      dropped,
      notes,
    },
  };
}

import { timeOrderedId } from '../common/time-ordered-id.js';
import type { MessageRow } from '../conversations/whole-conversations.repository.js';
import { versionOf, type Message, type MessageVersion } from '../conversations/message.entity.js';
import type { ImportedMessage } from './imported-conversation.js';

/**
 * The rows of a linear history (an export of format version 1): each message follows the one
 * before it in its thread, all on the active path; each earlier answer kept in `versions`
 * becomes a sibling reply off the path, numbered after the history. Returns the rows, the
 * history's first (parents before children), and the conversation's last seq.
 */
export function linearToTree(
  messages: readonly ImportedMessage[],
  conversationId: string,
): { rows: MessageRow[]; lastSeq: number } {
  const lastOfThread = new Map<string, string>();
  const rows: MessageRow[] = [];
  const siblings: MessageRow[] = [];
  let nextSeq = messages.length;
  for (const m of messages) {
    const id = timeOrderedId();
    const parentId = lastOfThread.get(m.thread) ?? null;
    lastOfThread.set(m.thread, id);
    const { versions, ...fields } = m;
    rows.push({ ...fields, id, conversationId, tokens: null, parentId, onPath: true, versions: null });
    for (const v of versions ?? [])
      siblings.push(siblingOf(v, { conversationId, thread: m.thread, parentId, seq: ++nextSeq }));
  }
  return { rows: [...rows, ...siblings], lastSeq: nextSeq };
}

function siblingOf(
  v: MessageVersion,
  at: { conversationId: string; thread: string; parentId: string | null; seq: number },
): MessageRow {
  return {
    id: timeOrderedId(),
    conversationId: at.conversationId,
    seq: at.seq,
    thread: at.thread,
    role: 'assistant',
    content: v.content,
    tokens: null,
    status: v.status === 'streaming' ? 'failed' : v.status,
    model: v.model ?? null,
    promptTokens: v.promptTokens ?? null,
    completionTokens: v.completionTokens ?? null,
    versions: null,
    toolCalls: null,
    errorCode: v.error?.code ?? null,
    errorMessage: v.error ? v.error.message : null,
    createdAt: new Date(v.createdAt),
    parentId: at.parentId,
    onPath: false,
  };
}

/**
 * The copy of messages (a fork's) with new ids and the parents mapped to them. With `leaf`
 * off the active path, the copy's path in its thread becomes the way to `leaf` instead.
 */
export function copyTree(messages: readonly Message[], leaf: Message, copy: (m: Message) => MessageRow): MessageRow[] {
  const newIds = new Map(messages.map((m) => [m.id, timeOrderedId()] as const));
  const onLeafPath = new Set<string>();
  if (!leaf.onPath) {
    const byId = new Map(messages.map((m) => [m.id, m] as const));
    for (let at: Message | undefined = leaf; at; at = at.parentId ? byId.get(at.parentId) : undefined)
      onLeafPath.add(at.id);
  }
  return messages.map((m) => ({
    ...copy(m),
    id: newIds.get(m.id)!,
    parentId: m.parentId ? (newIds.get(m.parentId) ?? null) : null,
    onPath: leaf.onPath || m.thread !== leaf.thread ? m.onPath : onLeafPath.has(m.id),
  }));
}

/**
 * A tree as a linear history (format version 1): each thread's active path, numbered 1..n in
 * the order stored, each reply with the other answers to its question (its sibling replies off
 * the path) as its `versions`, oldest first; `renumber` maps a stored seq (what a summary
 * covers) to the number of the last message at or before it. Branches that start at an edited
 * question are not part of this view.
 */
export function treeToLinear(all: readonly Message[]): { messages: Message[]; renumber: (seq: number) => number } {
  const otherAnswers = new Map<string, Message[]>();
  for (const m of all) {
    if (m.onPath || m.role !== 'assistant' || m.parentId === null) continue;
    const list = otherAnswers.get(m.parentId);
    if (list) list.push(m);
    else otherAnswers.set(m.parentId, [m]);
  }
  const path = all.filter((m) => m.onPath).sort((a, b) => a.seq - b.seq);
  const messages = path.map((m, i) => {
    const others = m.role === 'assistant' && m.parentId ? (otherAnswers.get(m.parentId) ?? []) : [];
    const versions =
      others.length === 0
        ? m.versions
        : [
            ...(m.versions ?? []),
            ...others.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.seq - b.seq).map(versionOf),
          ];
    return Object.assign(Object.create(Object.getPrototypeOf(m) as object) as Message, m, { seq: i + 1, versions });
  });
  const stored = path.map((m) => m.seq);
  const renumber = (seq: number): number => {
    // The count of path messages stored at or before `seq` (binary search over the sorted seqs).
    let lo = 0;
    let hi = stored.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (stored[mid] <= seq) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  return { messages, renumber };
}

/** Each thread's active leaf: its last message on the active path (messages in seq order). */
export function activeLeavesOf(messages: readonly Message[]): Map<string, string> {
  const leaves = new Map<string, string>();
  for (const m of messages) if (m.onPath) leaves.set(m.thread, m.id);
  return leaves;
}

import { timeOrderedId } from '../common/time-ordered-id.js';
import type { MessageRow } from '../conversations/whole-conversations.repository.js';
import type { ArchiveLimits } from './archives/archive.types.js';
import { buildMessageTree, type SourceNode } from './archives/message-tree.js';
import type { ExportedConversation } from './export-document.js';
import type { ImportedMessage } from './imported-conversation.js';
import type { Problems } from './import-problems.js';

/** The tree of a version 2 document, by position in its `messages` (which is seq order). */
export interface ImportedTree {
  /** Per message: the position of its parent, or -1 for a first message. */
  readonly parents: readonly number[];
  /** Per message: on its thread's active path. */
  readonly onPath: readonly boolean[];
  /** Messages with more than one child, plus threads with more than one first message. */
  readonly branchPoints: number;
}

/**
 * Our own files are bounded by MAX_MESSAGES_PER_CONVERSATION (checked by the importer, a 409);
 * these only keep a hand-made file from going past what the service could ever store.
 */
const OWN_TREE_LIMITS: Pick<ArchiveLimits, 'maxNodes' | 'maxDepth'> = { maxNodes: 1_000_000, maxDepth: 100_000 };

/**
 * Checks the tree of a version 2 document whose fields are valid one by one, and answers it, or
 * null with the problems added. The tree itself (ids twice, a parent not in the document, a
 * cycle, too deep, too many) is checked by the archive readers' buildMessageTree; then what our
 * format adds: a parent is in its child's thread and listed before it (a path's seqs grow), and
 * a thread's active leaf is one of its messages. A thread without one gets its newest leaf, as an
 * archive without a current node does. Linear in the number of messages (plus sorting siblings).
 */
export function checkTree(
  problems: Problems,
  c: ExportedConversation,
  at: string,
  limits = OWN_TREE_LIMITS,
): ImportedTree | null {
  const messages = c.messages;
  const before = problems.total;
  messages.forEach((m, i) => {
    if (m.id === undefined)
      problems.add(`${at}.messages[${i}].id`, 'is missing (a string): in version 2 every message has an id');
  });
  if (problems.total > before) return null;

  const nodes: SourceNode[] = messages.map((m, i) => ({
    id: m.id!,
    parentId: m.parentId ?? null,
    // Only the shape is looked at here: the message's own fields are the document's.
    message: { role: 'user', content: '', reasoning: null, createdAt: new Date(0), model: null, status: 'complete' },
    time: null,
    order: i,
  }));
  const built = buildMessageTree(nodes, null, { maxConversationBytes: Infinity, ...limits });
  if (!built.ok) {
    problems.add(`${at}.messages`, built.reason);
    return null;
  }

  const indexOf = new Map<string, number>();
  messages.forEach((m, i) => indexOf.set(m.id!, i));
  const parents = messages.map((m) => (m.parentId == null ? -1 : indexOf.get(m.parentId)!));
  const children = new Array<number>(messages.length).fill(0);
  const roots = new Map<string, number>();
  parents.forEach((p, i) => {
    const m = messages[i];
    if (p < 0) return void roots.set(m.thread, (roots.get(m.thread) ?? 0) + 1);
    children[p]++;
    const path = `${at}.messages[${i}].parentId`;
    if (messages[p].thread !== m.thread)
      problems.add(
        path,
        `is a message of thread "${messages[p].thread}": a message follows one of its own thread ("${m.thread}")`,
      );
    else if (p > i)
      problems.add(path, `is listed after this message: a parent comes before its replies (messages are in seq order)`);
  });

  const leaves = new Map<string, number>();
  (c.threads ?? []).forEach((t, j) => {
    if (t.activeLeafId == null) return;
    const leaf = indexOf.get(t.activeLeafId);
    const path = `${at}.threads[${j}].activeLeafId`;
    if (leaf === undefined) problems.add(path, `"${t.activeLeafId}" is not the id of a message of this conversation`);
    else if (messages[leaf].thread !== t.name)
      problems.add(path, `is a message of thread "${messages[leaf].thread}", not of "${t.name}"`);
    else leaves.set(t.name, leaf);
  });
  if (problems.total > before) return null;

  // A thread with no active leaf given: its newest leaf (the latest created, the last listed of equals).
  const newest = new Map<string, number>();
  messages.forEach((m, i) => {
    if (children[i] > 0 || leaves.has(m.thread)) return;
    const best = newest.get(m.thread);
    if (best === undefined || Date.parse(m.createdAt) >= Date.parse(messages[best].createdAt)) newest.set(m.thread, i);
  });
  const onPath = new Array<boolean>(messages.length).fill(false);
  for (const leaf of [...leaves.values(), ...newest.values()]) {
    for (let i = leaf; i >= 0 && !onPath[i]; i = parents[i]) onPath[i] = true;
  }
  let branchPoints = children.filter((n) => n > 1).length;
  for (const n of roots.values()) if (n > 1) branchPoints++;
  return { parents, onPath, branchPoints };
}

/** The rows of a version 2 import: new ids, each parent mapped to its new id, the active paths as the document had them. */
export function treeToRows(
  messages: readonly ImportedMessage[],
  tree: ImportedTree,
  conversationId: string,
): MessageRow[] {
  const ids = messages.map(() => timeOrderedId());
  return messages.map((m, i) => {
    const { versions: _versions, ...fields } = m;
    const p = tree.parents[i];
    return {
      ...fields,
      id: ids[i],
      conversationId,
      tokens: null,
      parentId: p < 0 ? null : ids[p],
      onPath: tree.onPath[i],
      versions: null,
    };
  });
}

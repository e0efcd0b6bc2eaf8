import type { EntityManager } from 'typeorm';
import { versionOf, type Message } from './message.entity.js';
import type { MessageTreeRepository } from './message-tree.repository.js';

/** At most this many other answers are shown in a reply's `versions` (the newest); siblingIds lists them all. */
const MAX_VERSIONS_SHOWN = 20;

/**
 * Messages as a reader sees them in the tree: each with its siblings (for ‹ 2/3 ›), and each
 * reply with the other answers to its question, the read-only `versions` view kept for
 * clients written before the tree. A few queries per page, not per message; sibling rows carry
 * no content, and only the newest MAX_VERSIONS_SHOWN other answers of a reply are read whole.
 */
export async function withBranches(
  tree: MessageTreeRepository,
  em: EntityManager,
  conversationId: string,
  messages: Message[],
): Promise<Message[]> {
  if (messages.length === 0) return messages;
  const siblings = await tree.siblingsOf(em, conversationId, messages);
  const wanted = new Map<string, string[]>();
  for (const m of messages) {
    const family = siblings.get(m.id) ?? [m];
    m.siblingIds = family.map((s) => s.id);
    if (m.role === 'assistant')
      wanted.set(
        m.id,
        family
          .filter((s) => s.id !== m.id && s.role === 'assistant')
          .map((s) => s.id)
          .slice(-MAX_VERSIONS_SHOWN),
      );
  }
  const ids = [...new Set([...wanted.values()].flat())];
  const whole = new Map(
    (ids.length ? await tree.messagesById(em, conversationId, ids) : []).map((m) => [m.id, m] as const),
  );
  for (const m of messages) {
    const others = wanted.get(m.id);
    if (others)
      m.otherAnswers = [
        ...(m.versions ?? []),
        ...others
          .map((id) => whole.get(id))
          .filter((x): x is Message => x !== undefined)
          .map(versionOf),
      ];
  }
  return messages;
}

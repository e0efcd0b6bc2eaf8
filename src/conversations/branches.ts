import type { EntityManager } from 'typeorm';
import { versionOf, type Message } from './message.entity.js';
import type { MessageTreeRepository } from './message-tree.repository.js';

/**
 * Messages as a reader sees them in the tree: each with its siblings (for ‹ 2/3 ›), and each
 * reply with the other answers to its question, the read-only `versions` view kept for
 * clients written before the tree. One query per page, not per message.
 */
export async function withBranches(tree: MessageTreeRepository, em: EntityManager, conversationId: string, messages: Message[]): Promise<Message[]> {
  if (messages.length === 0) return messages;
  const siblings = await tree.siblingsOf(em, conversationId, messages);
  for (const m of messages) {
    const family = siblings.get(m.id) ?? [m];
    m.siblingIds = family.map((s) => s.id);
    if (m.role === 'assistant') {
      const others = family.filter((s) => s.id !== m.id && s.role === 'assistant').map(versionOf);
      m.otherAnswers = [...(m.versions ?? []), ...others];
    }
  }
  return messages;
}

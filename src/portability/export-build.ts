import type { Agent } from '../agents/agent.entity.js';
import type { Conversation } from '../conversations/conversation.entity.js';
import { replyErrorOf, versionOf, type Message } from '../conversations/message.entity.js';
import type { Summary } from '../conversations/summary.entity.js';
import type { Thread } from '../conversations/thread.entity.js';
import { exportedError, exportedVersion } from './export-error-status.js';
import {
  CONVERSATION_EXPORT_FORMAT,
  type ConversationExport,
  type ExportedAgent,
  type ExportedMessage,
  type ExportVersion,
} from './export-document.js';

/** An agent as exported: all its settings when it is the caller's own, only `id` and `name` when another actor offers it. */
export function exportAgent(agent: Agent, ownedByCaller: boolean): ExportedAgent {
  if (!ownedByCaller) return { id: agent.id, name: agent.name };
  return {
    id: agent.id,
    name: agent.name,
    emoji: agent.emoji,
    description: agent.description,
    systemPrompt: agent.systemPrompt,
    model: agent.model,
    temperature: agent.temperature,
    maxTokens: agent.maxTokens,
    contextTokenBudget: agent.contextTokenBudget,
    tools: [...agent.tools],
    createdAt: agent.createdAt.toISOString(),
    updatedAt: agent.updatedAt.toISOString(),
  };
}

/**
 * A stored conversation in the export format (every field written, none left to a default).
 * Version 1: `messages` is the linear view (treeToLinear), each reply with its `versions`.
 * Version 2: `messages` is every message of the tree in seq order with its id and parent,
 * and `activeLeaves` names each thread's last message on the active path.
 */
export function exportConversation(
  source: {
    readonly conversation: Conversation;
    readonly tags: readonly string[];
    readonly agent: ExportedAgent | null;
    readonly threads: readonly Thread[];
    readonly summaries: readonly Summary[];
    readonly messages: readonly Message[];
    readonly activeLeaves?: ReadonlyMap<string, string>;
  },
  exportedAt: Date,
  version: ExportVersion,
): ConversationExport {
  const c = source.conversation;
  const leaves = source.activeLeaves;
  return {
    format: CONVERSATION_EXPORT_FORMAT,
    version,
    exportedAt: exportedAt.toISOString(),
    conversation: {
      id: c.id,
      title: c.title,
      createdAt: c.createdAt.toISOString(),
      updatedAt: c.updatedAt.toISOString(),
      state: c.state ?? {},
      archived: Boolean(c.archived),
      pinned: Boolean(c.pinned),
      tags: [...source.tags],
      agent: source.agent,
      threads: source.threads.map((t) => ({
        name: t.name,
        systemPrompt: t.systemPrompt,
        createdAt: t.createdAt.toISOString(),
        updatedAt: t.updatedAt.toISOString(),
        ...(version === 2 ? { activeLeafId: leaves?.get(t.name) ?? null } : {}),
      })),
      summaries: source.summaries.map((s) => ({
        thread: s.thread,
        content: s.content,
        coversSeq: s.coversSeq,
        tokens: s.tokens,
        model: s.model,
        promptTokens: s.promptTokens,
        completionTokens: s.completionTokens,
        updatedAt: s.updatedAt.toISOString(),
      })),
      messages: source.messages.map((m): ExportedMessage => {
        // Reasoning only where there is some: most messages have none.
        const thought = m.reasoning ? { reasoning: m.reasoning, reasoningMs: m.reasoningMs } : {};
        const fields = {
          seq: m.seq,
          thread: m.thread,
          role: m.role,
          ...versionOf(m),
          error: exportedError(replyErrorOf(m)),
          ...thought,
        };
        if (version === 2) return { id: m.id, parentId: m.parentId, ...fields, toolCalls: m.toolCalls ?? [] };
        return { ...fields, versions: (m.versions ?? []).map(exportedVersion), toolCalls: m.toolCalls ?? [] };
      }),
    },
  };
}

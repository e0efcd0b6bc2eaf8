import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { Actor } from '../../actor-auth/actor.js';
import type { AgentsService } from '../../agents/agents.service.js';
import type { Conversation } from '../../conversations/conversation.entity.js';
import type { ConversationsService } from '../../conversations/conversations.service.js';
import { MESSAGE_ROLES, type Message } from '../../conversations/message.entity.js';
import { MAIN_THREAD } from '../../conversations/thread.entity.js';
import type { RecallService } from '../../recall/recall.service.js';
import { cutText, MAX_MESSAGE_CHARS } from './cut-text.js';
import { asTool, toolResult } from './tool-results.js';

/** Caps on what one call answers: results are read by a model, whose context is small. */
const MAX_SEARCH_HITS = 50;
const MAX_RECENT = 20;
const MAX_PAGE_MESSAGES = 50;
const MAX_QUERY_CHARS = 500;
/** get_conversation reads the current branch only: a hit elsewhere says so rather than be looked for there in vain. */
const OFF_PATH_NOTE =
  ' (in another branch, a version of the conversation other than the current one: get_conversation does not show it)';

interface HistoryDeps {
  readonly conversations: ConversationsService;
  readonly agents: AgentsService;
  readonly recall: RecallService;
}

const id = z.string().min(1).max(64).describe('A conversation id, as the other tools answer it');
const isoDate = z.string().datetime({ offset: true }).describe('An ISO 8601 date-time, e.g. 2026-01-31T12:00:00Z');
const hit = z.object({
  conversationId: z.string(),
  title: z.string(),
  snippet: z.string(),
  messageId: z.string().nullable().describe('The best-matching message; null when only the title matched'),
  onPath: z
    .boolean()
    .nullable()
    .describe(
      "Whether that message is on the conversation's current branch, the one get_conversation reads (false: another version, kept aside); null when only the title matched",
    ),
  updatedAt: z.string(),
});
const messageHit = z.object({
  messageId: z.string(),
  conversationId: z.string(),
  conversationTitle: z.string(),
  seq: z.number().int().describe("The message's place in its conversation"),
  role: z.string(),
  createdAt: z.string(),
  snippet: z.string().describe('The matched words in [brackets]'),
  onPath: z
    .boolean()
    .describe("Whether the message is on the conversation's current branch, the one get_conversation reads"),
  score: z.number().describe('Higher is better; comparable within one search only'),
});
const QUERY_HELP =
  'Words or a whole question: any word matches, messages holding more of them (and rarer ones) rank first; word forms and stop words do not matter. ' +
  '"a phrase" in double quotes, -word to exclude, word* for a prefix';
const summary = z.object({
  id: z.string(),
  title: z.string(),
  agentId: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
const message = z.object({
  id: z.string(),
  seq: z.number().int(),
  role: z.string(),
  status: z.string(),
  content: z.string(),
  cutCharacters: z.number().int().describe('How many characters of the content were left out (0: all of it)'),
  createdAt: z.string(),
});

const toSummary = (c: Conversation) => ({
  id: c.id,
  title: c.title,
  agentId: c.agentId ?? null,
  createdAt: c.createdAt.toISOString(),
  updatedAt: c.updatedAt.toISOString(),
});

/**
 * The read-only history tools, bound to one actor: search, recent conversations, and a page
 * of one conversation. None of them writes anything.
 */
export function registerHistoryTools(server: McpServer, actor: Actor, deps: HistoryDeps): void {
  const readOnly = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

  server.registerTool(
    'search_conversations',
    {
      title: 'Search conversations',
      description:
        "Ranked search over the user's conversation titles and messages (archived ones included): ask in words or a whole question. " +
        'One hit per conversation, best first, with a snippet and the best-matching message. Read one with get_conversation; ' +
        'for every matching message, several per conversation, use search_messages.',
      inputSchema: {
        query: z.string().trim().min(1).max(MAX_QUERY_CHARS).describe(QUERY_HELP),
        limit: z
          .number()
          .int()
          .min(1)
          .max(MAX_SEARCH_HITS)
          .optional()
          .describe(`At most this many hits (default 10, at most ${MAX_SEARCH_HITS})`),
      },
      outputSchema: { hits: z.array(hit) },
      annotations: readOnly,
    },
    ({ query, limit }) =>
      asTool(async () => {
        const found = await deps.recall.searchConversations(actor, query, limit ?? 10);
        const hits = found.map((h) => ({
          conversationId: h.conversation.id,
          title: h.conversation.title,
          snippet: h.snippet,
          messageId: h.messageId,
          onPath: h.onPath,
          updatedAt: h.conversation.updatedAt.toISOString(),
        }));
        const text = hits.length
          ? hits
              .map(
                (h, i) =>
                  `${i + 1}. "${h.title}" (conversation ${h.conversationId}, updated ${h.updatedAt})\n   ${h.snippet}${h.onPath === false ? OFF_PATH_NOTE : ''}`,
              )
              .join('\n')
          : `No conversation matches "${query}".`;
        return toolResult(text, { hits });
      }),
  );

  server.registerTool(
    'search_messages',
    {
      title: 'Search messages',
      description:
        "The user's messages best matching a question or some words, across all conversations (several per conversation), best first, " +
        'each with its conversation, date, role and a snippet. Narrow with before/after (created strictly before / after), role or conversationId; ' +
        'for more, call again with cursor = nextCursor. Read around a hit with get_conversation.',
      inputSchema: {
        query: z.string().trim().min(1).max(MAX_QUERY_CHARS).describe(QUERY_HELP),
        limit: z
          .number()
          .int()
          .min(1)
          .max(MAX_SEARCH_HITS)
          .optional()
          .describe(`At most this many hits (default 10, at most ${MAX_SEARCH_HITS})`),
        before: isoDate.optional(),
        after: isoDate.optional(),
        role: z.enum(MESSAGE_ROLES).optional().describe('Only messages of this role (user: what the user said)'),
        conversationId: id.optional(),
        cursor: z.string().max(200).optional().describe('The nextCursor of the previous call with the same query'),
      },
      outputSchema: { hits: z.array(messageHit), nextCursor: z.string().nullable() },
      annotations: readOnly,
    },
    ({ query, limit, before, after, role, conversationId, cursor }) =>
      asTool(async () => {
        const page = await deps.recall.searchMessages(actor, query, {
          limit: limit ?? 10,
          cursor,
          role,
          conversationId,
          before: before === undefined ? undefined : new Date(before),
          after: after === undefined ? undefined : new Date(after),
        });
        const hits = page.items.map((h) => ({
          messageId: h.messageId,
          conversationId: h.conversationId,
          conversationTitle: h.conversationTitle,
          seq: h.seq,
          role: h.role,
          createdAt: h.createdAt.toISOString(),
          snippet: h.snippet,
          onPath: h.onPath,
          score: h.score,
        }));
        const text = hits.length
          ? hits
              .map(
                (h, i) =>
                  `${i + 1}. [${h.createdAt}] ${h.role} in "${h.conversationTitle}" (conversation ${h.conversationId}, message ${h.seq})\n   ${h.snippet}${h.onPath ? '' : OFF_PATH_NOTE}`,
              )
              .join('\n') + (page.nextCursor ? `\nMore: call again with cursor=${page.nextCursor}` : '')
          : `No message matches "${query}".`;
        return toolResult(text, { hits, nextCursor: page.nextCursor });
      }),
  );

  server.registerTool(
    'recent_conversations',
    {
      title: 'Recent conversations',
      description:
        "The user's most recently updated conversations, newest first (archived ones left out). " +
        'Narrow with before/after (updated strictly before / after that instant); page back by passing the last updatedAt as before.',
      inputSchema: {
        n: z.number().int().min(1).max(MAX_RECENT).optional().describe(`How many (default 10, at most ${MAX_RECENT})`),
        before: isoDate.optional(),
        after: isoDate.optional(),
      },
      outputSchema: { conversations: z.array(summary) },
      annotations: readOnly,
    },
    ({ n, before, after }) =>
      asTool(async () => {
        const found = await deps.conversations.recent(actor, n ?? 10, {
          before: before === undefined ? undefined : new Date(before),
          after: after === undefined ? undefined : new Date(after),
        });
        const conversations = found.map(toSummary);
        const text = conversations.length
          ? conversations
              .map((c, i) => `${i + 1}. "${c.title}" (conversation ${c.id}, updated ${c.updatedAt})`)
              .join('\n')
          : 'No conversations in that range.';
        return toolResult(text, { conversations });
      }),
  );

  server.registerTool(
    'get_conversation',
    {
      title: 'Read a conversation',
      description:
        'A conversation: its title, agent, and a page of its messages, newest first. ' +
        `Messages longer than ${MAX_MESSAGE_CHARS} characters are cut with a note. ` +
        'For older messages, call again with before = nextBefore (null: no older messages).',
      inputSchema: {
        id,
        before: z
          .number()
          .int()
          .min(1)
          .optional()
          .describe('The nextBefore of the previous page: messages older than that'),
        limit: z
          .number()
          .int()
          .min(1)
          .max(MAX_PAGE_MESSAGES)
          .optional()
          .describe(`Messages per page (default 20, at most ${MAX_PAGE_MESSAGES})`),
      },
      outputSchema: {
        ...summary.shape,
        agent: z.object({ id: z.string(), name: z.string() }).nullable(),
        messages: z.array(message).describe('Newest first'),
        nextBefore: z
          .number()
          .int()
          .nullable()
          .describe('Pass as before for the older page; null when this page reaches the first message'),
      },
      annotations: readOnly,
    },
    ({ id: conversationId, before, limit: asked }) =>
      asTool(async () => {
        const limit = asked ?? 20;
        const conversation = await deps.conversations.get(actor, conversationId);
        // One extra message tells whether older ones exist.
        const page = await deps.conversations.messagesPage(actor, conversationId, {
          before,
          limit: limit + 1,
          thread: MAIN_THREAD,
        });
        const shown = page.slice(-limit);
        const nextBefore = page.length > limit ? shown[0].seq : null;
        const agent = conversation.agentId ? await agentOf(deps, actor, conversation.agentId) : null;
        const how = `the whole text is in the REST API, GET /api/conversations/${conversationId}`;
        const messages = shown.reverse().map((m) => toMessage(m, how));
        const structured = { ...toSummary(conversation), agent, messages, nextBefore };
        return toolResult(conversationText(structured), structured);
      }),
  );
}

function toMessage(m: Message, how: string) {
  const { text, cut } = cutText(m.content, MAX_MESSAGE_CHARS, how);
  return {
    id: m.id,
    seq: m.seq,
    role: m.role,
    status: m.status,
    content: text,
    cutCharacters: cut,
    createdAt: m.createdAt.toISOString(),
  };
}

/** The agent's name, or null when it is gone: a conversation outlives nothing it needs to be read. */
async function agentOf(deps: HistoryDeps, actor: Actor, agentId: string): Promise<{ id: string; name: string } | null> {
  try {
    const agent = await deps.agents.get(actor, agentId);
    return { id: agent.id, name: agent.name };
  } catch {
    return null;
  }
}

function conversationText(c: {
  id: string;
  title: string;
  agent: { name: string } | null;
  messages: Array<{ role: string; createdAt: string; status: string; content: string }>;
  nextBefore: number | null;
}): string {
  const head = `"${c.title}" (conversation ${c.id}${c.agent ? `, agent ${c.agent.name}` : ''})`;
  const body = c.messages.length
    ? c.messages
        .map((m) => `[${m.createdAt}] ${m.role}${m.status === 'complete' ? '' : ` (${m.status})`}:\n${m.content}`)
        .join('\n\n')
    : 'No messages.';
  const more =
    c.nextBefore === null
      ? 'These reach the first message.'
      : `Older messages: call again with before=${c.nextBefore}.`;
  return `${head}, newest first:\n\n${body}\n\n${more}`;
}

import type { ChatMemoryClient, Schemas } from '../../../clients/typescript/src/index.js';
import { ApiError, call } from './api-error.js';
import type { ConsoleIo } from './console-io.js';

export type Agent = Schemas['AgentDto'];

/**
 * /agent NAME: the agent of that name (created if missing) and its most recent conversation.
 * /agent none: no agent, a new conversation. /agent alone: lists the agents (undefined).
 */
export async function useAgent(
  client: ChatMemoryClient,
  io: ConsoleIo,
  name: string | undefined,
  current: Agent | undefined,
): Promise<{ agent: Agent | undefined; conversationId: string | undefined } | undefined> {
  if (name?.toLowerCase() === 'none') {
    io.out('No agent: your next message starts a plain conversation.\n');
    return { agent: undefined, conversationId: undefined };
  }
  const items = await allAgents(client, io);
  if (!name) {
    if (!items.length) io.out('No agents yet: /agent NAME creates one.\n');
    for (const a of items) io.out(`${a.id === current?.id ? '*' : ' '} ${a.emoji ? `${a.emoji} ` : ''}${a.name}\n`);
    return undefined;
  }
  let agent = items.find((a) => a.name.toLowerCase() === name.toLowerCase());
  if (!agent) {
    agent = await call(io.url, client.POST('/api/agents', { body: { name } }));
    io.out(`Created agent ${agent.name}.\n`);
  }
  const conversationId = await activeConversation(client, io, agent.id);
  const where = conversationId ? 'continuing its latest conversation' : 'your next message starts a conversation';
  io.out(`Agent ${agent.name}: ${where}.\n`);
  return { agent, conversationId };
}

/** The console follows nextCursor this many pages at most (200 agents each). */
const MAX_AGENT_PAGES = 50;

/** Every agent of the caller, page by page (one page under the default MAX_AGENTS_PER_ACTOR). */
async function allAgents(client: ChatMemoryClient, io: ConsoleIo): Promise<Agent[]> {
  const items: Agent[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_AGENT_PAGES; page++) {
    const result = await call(io.url, client.GET('/api/agents', { params: { query: cursor ? { cursor } : {} } }));
    items.push(...result.items);
    cursor = result.nextCursor ?? undefined;
    if (!cursor) break;
  }
  return items;
}

async function activeConversation(
  client: ChatMemoryClient,
  io: ConsoleIo,
  agentId: string,
): Promise<string | undefined> {
  try {
    const params = { query: { agentId } };
    return (await call(io.url, client.GET('/api/conversations/active', { params }))).id;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return undefined;
    throw error;
  }
}

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** One operation of the committed OpenAPI spec. */
export interface SpecRoute {
  readonly method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** As in the spec, with `{id}` and `{messageId}` placeholders. */
  readonly path: string;
  readonly operationId: string;
}

/** Ids to put in paths and bodies. */
export interface RouteIds {
  readonly conversation: string;
  readonly message: string;
  /** A user message, for the routes that take one (edit); `message` otherwise. */
  readonly userMessage?: string;
  readonly agent: string;
  /** A memory, for the routes of /api/memories/{id} (`conversation` otherwise: another actor's id answers as unknown). */
  readonly memory?: string;
  /** A share, for DELETE /api/shares/{id} (`conversation` otherwise: an unknown share id). */
  readonly share?: string;
  /** A share link's token, for /api/shared/{token} (a well-formed unknown one otherwise). */
  readonly shareToken?: string;
  /** A document for the import route (e.g. an export of the conversation). */
  readonly exported?: object;
}

const SPEC_FILE = fileURLToPath(new URL('../../docs/openapi.json', import.meta.url));

/** Every operation of docs/openapi.json: a test that walks them covers a new route by itself. */
export function specRoutes(): SpecRoute[] {
  const spec = JSON.parse(readFileSync(SPEC_FILE, 'utf8')) as {
    paths: Record<string, Record<string, { operationId: string }>>;
  };
  return Object.entries(spec.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({
      method: method as SpecRoute['method'],
      path,
      operationId: op.operationId,
    })),
  );
}

/** The route's path with the ids put in (agents' routes take the agent id). */
export function routePath(route: SpecRoute, ids: RouteIds): string {
  const id = route.path.startsWith('/api/agents')
    ? ids.agent
    : route.path.startsWith('/api/memories')
      ? (ids.memory ?? ids.conversation)
      : route.path.startsWith('/api/shares/')
        ? (ids.share ?? ids.conversation)
        : ids.conversation;
  const message = route.operationId.startsWith('editMessage') ? (ids.userMessage ?? ids.message) : ids.message;
  const path = route.path
    .replace('{id}', id)
    .replace('{messageId}', message)
    .replace('{token}', ids.shareToken ?? UNKNOWN_SHARE_TOKEN);
  // A route whose query is required gets one.
  return route.operationId === 'searchMessages' ? `${path}?q=trip` : path;
}

/** A token of the right shape that no share has. */
const UNKNOWN_SHARE_TOKEN = 'A'.repeat(43);

/** A valid request body for the routes that need one, aimed at the given resources. */
export function routeBody(route: SpecRoute, ids: RouteIds): object | undefined {
  return ROUTE_BODIES[route.operationId]?.(ids);
}

const ROUTE_BODIES: Record<string, (ids: RouteIds) => object> = {
  chat: ({ conversation }) => ({ message: 'let me in', conversationId: conversation }),
  chatStream: ({ conversation }) => ({ message: 'let me in', conversationId: conversation }),
  createConversation: ({ agent }) => ({ agentId: agent }),
  createAgent: () => ({ name: 'intruder' }),
  replaceState: () => ({ owned: 'by someone else' }),
  patchState: () => ({ owned: 'by someone else' }),
  updateAgent: () => ({ name: 'taken' }),
  updateConversation: () => ({ title: 'taken' }),
  pinMessage: () => ({ pinned: true }),
  createMemory: () => ({ text: 'planted' }),
  updateMemory: () => ({ text: 'taken' }),
  importMemories: () => ({ memories: [] }),
  regenerateReply: () => ({}),
  regenerateReplyStream: () => ({}),
  editMessage: () => ({ message: 'In other words?' }),
  editMessageStream: () => ({ message: 'In other words?' }),
  forkConversation: ({ message }) => ({ fromMessageId: message }),
  importConversation: ({ exported }) => exported ?? {},
  // An empty archive: a valid upload that stores nothing.
  importArchive: () => [],
  uiChat: ({ conversation }) => ({
    id: conversation,
    message: { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'let me in' }] },
  }),
};

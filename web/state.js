// @ts-check
// What the page knows, in one object that the other modules read and change; the API client that
// they share; and how a change reaches the parts of the page that show it: a module that changes
// the state says what changed (`changed('conversation')`), and the parts subscribed to that topic
// (app.js wires them) render it, once for all the changes of one task. Types of the API's answers
// come from the client generated from the OpenAPI document (clients/typescript/src/schema.ts).
import { createApi } from './api.js';

/** @typedef {import('./api.js').Schemas} Schemas */
/** @typedef {Schemas['AgentDto']} Agent */
/** @typedef {Schemas['ConversationSummaryDto']} ConversationSummary */
/** @typedef {Schemas['MessageDto']} Message */
/** @typedef {Schemas['MessageHitDto']} MessageHit */

/**
 * A message as the page keeps it: the API's fields that the view uses. `id` is null until the
 * server names it; an error of the page's own (the connection ended) has no status.
 * `createdAt` and `model` are missing on a message sent from this page until it is stored, and
 * its place in the tree (`siblingIds`, `siblingIndex`, `siblingCount`) until the path is read again.
 * @typedef {Pick<Message, 'role' | 'content' | 'status'> & { id: string | null, error: { statusCode?: number, message: string } | null, createdAt?: string, model?: string | null } & Partial<Pick<Message, 'siblingIds' | 'siblingIndex' | 'siblingCount' | 'pinned' | 'reasoning' | 'reasoningMs' | 'toolCalls'>>} ViewMessage
 */

/**
 * The conversation shown. `id` is null for a new chat until its first turn names it.
 * `nextBefore`: the `before` for the page of older messages, null once the first message is shown.
 * @typedef {object} OpenConversation
 * @property {string | null} id
 * @property {string} title
 * @property {string | null} agentId
 * @property {ViewMessage[]} messages
 * @property {number | null} [nextBefore]
 * @property {boolean} [loadingEarlier] a page of older messages is being loaded
 * @property {boolean} [loading] opened, its messages not loaded yet
 * @property {boolean} [pinned]
 * @property {boolean} [archived]
 * @property {string[]} [tags]
 * @property {string} [thread] the thread shown, `main` unless told
 * @property {Schemas['ThreadDto'][]} [threads] the conversation's threads, as opening it listed them
 * @property {string} [pendingSystem] the system prompt of a new thread, sent with its first turn
 * @property {string | null} [model] the model chosen for it (null: the agent's or the default)
 */

/**
 * The reply being streamed.
 * @typedef {object} Busy
 * @property {string | null} conversationId
 * @property {string | null} messageId null until the `conversation` event names it
 * @property {AbortController} controller
 * @property {boolean} stopRequested
 * @property {ViewMessage} reply
 */

/**
 * The message to show when a search result is opened; `onPath` false: it is on another branch,
 * selected before the conversation is read.
 * @typedef {{ id: string, seq: number, thread: string | undefined, onPath?: boolean }} Highlight
 */

export const PAGE_SIZE = 30;
export const SEARCH_CHATS = 5; // conversations shown first for a search, above its messages ("More chats": SEARCH_CHATS_MORE)
export const SEARCH_CHATS_MORE = 50;
export const SEARCH_HITS = 20; // messages per page of a search's message results
export const EARLIER_PAGE_SIZE = 100; // older messages fetched per "Show earlier messages"
export const MAX_PAGE_SIZE = 200; // the most GET .../messages answers at once
export const SEARCH_REACH = 5000; // at most this many older messages are loaded to reach the message a search found
export const NARROW = window.matchMedia('(max-width: 760px)');

const KEY_STORAGE = 'chat-memory.apiKey';

export const state = {
  /** @type {string | null} */
  key: readStoredKey(),
  singleUser: false,
  /** @type {number | null} the longest message the server takes (GET /api/settings) */
  maxMessageChars: null,
  /** @type {Map<string, Agent>} id -> agent */
  agents: new Map(),
  list: {
    /** @type {ConversationSummary[]} */
    items: [],
    /** @type {string | null} */
    nextCursor: null,
    query: '',
    searchable: true, // false once the server refuses ?q= (list.js)
    seq: 0, // numbers the list requests: only the newest one's answer is shown
    archived: false, // the "Archived" view: archived conversations only
    pinnedOnly: false, // the "Pinned" view: pinned conversations only
    tag: '', // only conversations with this tag ('' for all)
    searchLimit: SEARCH_CHATS, // how many conversations a search lists
    moreFound: false, // the search found more conversations than it lists, and "More chats" lists them
  },
  /** The messages a search found (GET /api/search), below the conversations it found. */
  hits: {
    /** @type {MessageHit[]} */
    items: [],
    /** @type {string | null} */
    nextCursor: null,
    seq: 0, // numbers the requests: only the newest one's answer is shown
  },
  /** @type {Highlight | null} */
  highlight: null,
  /** @type {OpenConversation | null} null: a new chat */
  current: null,
  newAgentId: '', // the agent picked for the next new conversation
  newModel: '', // the model picked for the next new conversation ('' for the default)
  /** @type {Busy | null} */
  busy: null,
};

export const api = createApi(() => state.key);

/**
 * A message as the page keeps it: the API's fields that the view uses.
 * @param {Schemas['MessageDto']} message
 * @returns {ViewMessage}
 */
export const toViewMessage = ({
  id,
  role,
  content,
  status,
  error,
  createdAt,
  model,
  siblingIds,
  siblingIndex,
  siblingCount,
  pinned,
  reasoning,
  reasoningMs,
  toolCalls,
}) => ({
  id,
  role,
  content,
  status,
  error,
  createdAt,
  model,
  siblingIds,
  siblingIndex,
  siblingCount,
  pinned,
  reasoning,
  reasoningMs,
  toolCalls,
});

/** @returns {string | null} */
function readStoredKey() {
  try {
    return localStorage.getItem(KEY_STORAGE);
  } catch {
    return null; // storage disabled: the key lasts as long as the page
  }
}

/** Keeps the key for the next visits (null forgets it). @param {string | null} key */
export function writeStoredKey(key) {
  try {
    if (key) localStorage.setItem(KEY_STORAGE, key);
    else localStorage.removeItem(KEY_STORAGE);
  } catch {
    // storage disabled
  }
}

/**
 * What can change, and what a change names: the messages to paint again, the conversation in
 * which a reply is being written elsewhere. The other topics carry nothing.
 * - `conversation`: the conversation shown (`state.current`): it is rendered again
 * - `message`: these messages' text or status (a reply growing, finished, a message given its id)
 * - `busy`: a reply started or stopped streaming (`state.busy`)
 * - `list`, `hits`: the conversations listed, the messages a search found
 * - `filters`: which conversations the list shows (its view, its tag): it is read again
 * - `reply-elsewhere`: the server is writing a reply in this conversation for another client
 * @typedef {{ conversation: never, message: ViewMessage, busy: never, list: never, hits: never, filters: never, 'reply-elsewhere': OpenConversation }} Topics
 */

/**
 * @template {keyof Topics} T
 * @typedef {(items: Topics[T][]) => void} Listener
 */

/** @type {Map<keyof Topics, Listener<any>[]>} */
const listeners = new Map();
/** @type {Map<keyof Topics, Set<unknown>>} the topics changed since the last flush, in order, with what they name */
let pending = new Map();

/**
 * Calls `listener` after each batch of changes of `topic` (in the order of subscription).
 * @template {keyof Topics} T
 * @param {T} topic
 * @param {Listener<T>} listener
 */
export function subscribe(topic, listener) {
  listeners.set(topic, [...(listeners.get(topic) ?? []), listener]);
}

/**
 * Says that a part of the state changed. Its listeners run once the current task's code is done
 * (a microtask), so that one action that changes many things renders each part once.
 * @template {keyof Topics} T
 * @param {T} topic
 * @param {...Topics[T]} items
 */
export function changed(topic, ...items) {
  if (pending.size === 0) queueMicrotask(flush);
  const named = pending.get(topic) ?? new Set();
  for (const item of items) named.add(item);
  pending.set(topic, named);
}

/**
 * Renders what changed now, rather than after the current code: for code that goes on with the
 * elements a render makes (focus one, scroll to one).
 */
export function flush() {
  const batch = pending;
  pending = new Map();
  for (const [topic, items] of batch) {
    for (const listener of listeners.get(topic) ?? []) {
      try {
        listener([...items]);
      } catch (error) {
        reportError(error); // one part failing leaves the others rendered
      }
    }
  }
}

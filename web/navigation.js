// @ts-check
// Navigation: #/c/<id> is a conversation, anything else a new chat. Reloading keeps the place.
import { ApiError } from './api.js';
import { loadAgents } from './agents.js';
import { $ } from './dom.js';
import { closeDrawer } from './drawer.js';
import { showHighlight } from './earlier.js';
import { describe, hideError, showError } from './errors.js';
import { refreshList } from './list.js';
import { focusComposer } from './message-box.js';
import { api, changed, flush, state, toViewMessage } from './state.js';
import { detachStream, follow } from './stream.js';

/** @typedef {import('./state.js').Schemas} Schemas */
/** @typedef {import('./state.js').Highlight} Highlight */
/** @typedef {import('./state.js').OpenConversation} OpenConversation */

const CONVERSATION_HASH = /^#\/c\/([0-9a-f-]{36})$/i;

/** Shows what the address names. */
export async function route() {
  const match = CONVERSATION_HASH.exec(location.hash);
  const fromDrawer = document.body.classList.contains('drawer-open');
  closeDrawer(false);
  if (match) await openConversation(match[1]);
  else newChat();
  if (fromDrawer) $('title').focus(); // the list is out of reach again: continue at the top of the chat
}

/** @param {string} hash */
export function navigate(hash) {
  if (location.hash === hash) void route();
  else location.hash = hash;
}

function newChat() {
  detachStream();
  hideError();
  state.current = null;
  $('agent-select', HTMLSelectElement).value = state.newAgentId;
  changed('conversation');
  changed('list');
  focusComposer();
}

/** Settles once the conversation being opened is shown, or could not be: a message sent meanwhile waits for it. */
let shown = Promise.resolve();
export const conversationShown = () => shown;

/**
 * @param {string} id
 * @param {{ keepError?: boolean, thread?: string }} [options] keepError: leave the error shown (the reason it is reopened); thread: the thread to show (default main, or the thread of the search result opened)
 */
export async function openConversation(id, options = {}) {
  const showing = showConversation(id, options);
  shown = showing.then(
    () => undefined,
    () => undefined,
  );
  // A reply still being generated (by an earlier visit, another tab, another client): follow it.
  const streaming = await showing;
  if (streaming && state.current?.messages.at(-1) === streaming) await follow(state.current, streaming);
}

/**
 * Reads and shows the conversation; the reply it ends with when that is still being written.
 * @param {string} id
 * @param {{ keepError?: boolean, thread?: string }} options
 * @returns {Promise<import('./state.js').ViewMessage | undefined>}
 */
async function showConversation(id, { keepError = false, thread = state.highlight?.thread ?? 'main' }) {
  detachStream();
  if (!keepError) hideError();
  if (state.current?.id !== id) {
    state.current = {
      id,
      title: state.list.items.find((c) => c.id === id)?.title ?? '…',
      agentId: null,
      messages: [],
      loading: true,
    };
    changed('conversation');
  }
  const found = state.highlight;
  if (found?.onPath === false) {
    await selectFound(id, found);
    if (state.current?.id !== id) return;
  }
  /** @type {Schemas['ConversationDetailDto']} */
  let conversation;
  try {
    conversation = await api.json('GET', `api/conversations/${id}?${new URLSearchParams({ thread })}`);
  } catch (error) {
    if (state.current?.id !== id) return;
    state.current = null;
    history.replaceState(null, '', location.pathname);
    changed('conversation');
    showError(error);
    if (error instanceof ApiError && error.status === 404) void refreshList();
    return;
  }
  if (state.current?.id !== id) return; // the user went elsewhere meanwhile
  if (conversation.agentId && !state.agents.has(conversation.agentId)) await loadAgents(); // made since the page loaded
  if (state.current?.id !== id) return;
  const highlight = state.highlight;
  state.highlight = null;
  state.current = {
    id,
    title: conversation.title,
    agentId: conversation.agentId,
    model: conversation.model,
    pinned: conversation.pinned,
    archived: conversation.archived,
    tags: conversation.tags,
    messages: conversation.messages.map(toViewMessage),
    nextBefore: conversation.nextBefore ?? null, // opening returns the newest messages only
    loadingEarlier: false,
    thread,
    threads: conversation.threads,
  };
  changed('conversation');
  changed('list');
  flush(); // the message a search found is looked for among the elements shown
  focusComposer();
  void showHighlight(state.current, highlight); // may load older pages: the reply is followed meanwhile
  const last = state.current.messages.at(-1);
  return last?.role === 'assistant' && last.status === 'streaming' ? last : undefined;
}

/**
 * The `reply-elsewhere` topic: a turn was refused because the server is writing a reply in the
 * conversation (another tab, another client): it is read again, and that reply followed, so it can
 * be stopped or awaited. The error that says so stays shown.
 * @param {OpenConversation[]} conversations
 */
export function followElsewhere(conversations) {
  for (const { id, thread } of conversations) if (id) void openConversation(id, { keepError: true, thread });
}

/**
 * A search result on another branch than the active one: that branch is made active first
 * (POST .../select, as ‹ › does), so the page reads and shows it as any path, and the next
 * message continues it; ‹ › switches back. Refused (a reply being written on that thread, say),
 * the conversation opens as it is, with the reason, and without the result marked.
 * @param {string} id
 * @param {Highlight} found
 */
async function selectFound(id, found) {
  try {
    await api.json('POST', `api/conversations/${id}/messages/${found.id}/select`);
  } catch (error) {
    if (state.current?.id !== id) return;
    if (state.highlight === found) state.highlight = null;
    if (error instanceof ApiError && error.status === 404) return; // gone: reading the conversation says what is left
    showError(
      new Error(
        `The message this search found is in another version of the conversation, which cannot be shown now: ${describe(error).text}`,
      ),
    );
    return;
  }
  found.onPath = true;
  $('announcer').textContent = 'Switched to the version of the conversation where the search found it.';
  void refreshList(); // the results now say so (and the conversation moved up: selecting touches it)
}

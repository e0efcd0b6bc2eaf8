// @ts-check
// The chat page: a sidebar of the caller's conversations and one conversation, whose replies
// stream in through POST /api/chat/stream. See docs/api.md for every route used here. This file
// starts the page and wires its controls; each part lives in a module of its own:
//   state.js         what the page knows (one object) and the API client it shares
//   api.js           the HTTP API: JSON routes, streaming routes, its errors
//   event-stream.js  server-sent events read from a fetch body (eventsource-parser)
//   auth.js          the API key: asking for it, keeping it
//   agents.js        the agent picker and agents' names
//   model-picker.js  the model of the conversation shown, or of the next new chat
//   message-extras.js  a reply's reasoning and tool calls, collapsed
//   list.js          the conversation list and its search
//   message-results.js  the messages a search found, below the conversations it found
//   snippet.js       search snippets as plain text, the words found marked
//   navigation.js    the address (#/c/<id>), opening a conversation, a new chat
//   conversation.js  the messages shown, painted as they change
//   earlier.js       older messages: "Show earlier messages", loading back to a search result
//   composer.js      the message box: send, regenerate, stop
//   stream.js        a reply streaming in, followed, refused or cancelled
//   dialogs.js       rename and delete
//   drawer.js        the list as a drawer on narrow screens
//   errors.js        errors shown plainly above the message box
//   render.js        replies as Markdown, made safe
//   code-highlight.js  syntax highlighting of code blocks (highlight.js)
//   message-tools.js   under each message: time, model, status badge, copy, fork
//   branches.js      the tree: Edit on the user's messages, ‹ n/m › between versions, the path read again
//   conversation-menu.js  pin, tags, archive, export of the conversation shown
//   import-dialog.js  importing archives (ChatGPT, Open WebUI, our exports): checked, then confirmed
//   list-filters.js  the Chats and Archived views of the list, and its tag filter
//   shortcuts.js     keyboard shortcuts and their help dialog
//   theme.js         the theme: the system's, light or dark
//   modal.js         the panels' dialogs: focus in and back, the API's messages per field
//   agent-editor.js  the agents dialog: list, editor, start a chat, delete
//   thread-panel.js  the thread picker and a new thread with its own system prompt
//   state-panel.js   the session state as JSON to edit
//   context-panel.js what the next turn sends the model, and the token usage
//   account.js       usage per day and model, export everything, erase everything
import { wireAccount } from './account.js';
import { wireAgents } from './agent-editor.js';
import { connect, storeKey } from './auth.js';
import { autosize, send, stop } from './composer.js';
import { wireContextPanel } from './context-panel.js';
import { renderConversation } from './conversation.js';
import { installConversationMenu } from './conversation-menu.js';
import { remove, rename, wireRename } from './dialogs.js';
import { $ } from './dom.js';
import { closeDrawer, openDrawer, syncDrawer } from './drawer.js';
import { hideError } from './errors.js';
import { wireImportDialog } from './import-dialog.js';
import { wireListFilters } from './list-filters.js';
import { loadList, onSearchInput, refreshList, renderList } from './list.js';
import { loadMessageHits, renderMessageHits } from './message-results.js';
import { navigate, route } from './navigation.js';
import { wireShortcuts } from './shortcuts.js';
import { wireTheme } from './theme.js';
import { NARROW, state } from './state.js';
import { wireStatePanel } from './state-panel.js';
import { wireMemoryPanel } from './memory-panel.js';
import { detachStream } from './stream.js';
import { wireThreads } from './thread-panel.js';
import { loadModels, wireModelPicker } from './model-picker.js';

/** Finds out whether a key is needed (single-user mode answers without one), then loads. */
async function start() {
  wire();
  if (!(await connect())) return;
  if (returnToShare()) return;
  await Promise.all([refreshList(), loadModels()]);
  await route();
}

async function forgetKey() {
  detachStream();
  storeKey(null);
  state.current = null;
  state.list.items = [];
  state.hits.items = [];
  state.hits.nextCursor = null;
  renderList();
  renderMessageHits();
  renderConversation();
  history.replaceState(null, '', location.pathname);
  if (await connect()) {
    await refreshList();
    await route();
  }
}

/**
 * Back to the share link that sent the reader here to sign in (?return=s/<token>, relative to
 * the page, like the link itself): only a share link's address is followed, never another place.
 * @returns {boolean} true when the page is left
 */
function returnToShare() {
  const back = new URLSearchParams(location.search).get('return');
  if (back === null) return false;
  history.replaceState(null, '', location.pathname + location.hash);
  if (!/^s\/[A-Za-z0-9_-]{1,100}$/.test(back)) return false;
  location.replace(new URL(back, location.href).href);
  return true;
}

function wire() {
  wireTheme();
  installConversationMenu();
  wireListFilters();
  wireShortcuts();
  $('composer').addEventListener('submit', (event) => {
    event.preventDefault();
    void send();
  });
  $('message').addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing && event.keyCode !== 229) {
      event.preventDefault();
      void send();
    }
  });
  $('message').addEventListener('input', autosize);
  $('stop').addEventListener('click', () => void stop());
  $('new-chat').addEventListener('click', () => {
    // A new chat starts without the agent picked for the last one.
    state.newAgentId = '';
    closeDrawer(false);
    navigate('#/');
  });
  const agentSelect = $('agent-select', HTMLSelectElement);
  agentSelect.addEventListener('change', () => {
    state.newAgentId = agentSelect.value;
  });
  $('rename').addEventListener('click', () => void rename());
  wireRename();
  $('delete').addEventListener('click', () => void remove());
  $('load-more').addEventListener('click', () => void loadList(true));
  $('search').addEventListener('input', onSearchInput);
  $('search-form').addEventListener('submit', (event) => event.preventDefault());
  $('forget-key').addEventListener('click', () => void forgetKey());
  $('error-dismiss').addEventListener('click', hideError);
  $('open-drawer').addEventListener('click', openDrawer);
  $('close-drawer').addEventListener('click', () => closeDrawer());
  $('backdrop').addEventListener('click', () => closeDrawer());
  $('conversation-list').addEventListener('click', openResult);
  $('message-results').addEventListener('click', openResult);
  $('more-hits').addEventListener('click', () => void loadMessageHits(true));
  $('key-dialog').addEventListener('cancel', (event) => event.preventDefault()); // a key is needed
  document.addEventListener('keydown', (event) => {
    // Escape in a dialog opened from the drawer closes only the dialog.
    if (event.key === 'Escape' && document.body.classList.contains('drawer-open') && !document.querySelector('dialog[open]')) closeDrawer();
  });
  NARROW.addEventListener('change', () => {
    if (!NARROW.matches) closeDrawer(false);
    syncDrawer();
  });
  window.addEventListener('hashchange', () => void route());
  syncDrawer();
  wirePanels();
}

/**
 * A click in the list or the messages found: a search result carries the message to show (read
 * by navigation.js). Clicking the open conversation again reloads it (and closes the drawer, as
 * any choice does), at the message clicked.
 * @param {MouseEvent} event
 */
function openResult(event) {
  const link = event.target instanceof Element ? event.target.closest('a') : null;
  if (!link) return;
  const { messageId: id, messageSeq, messageThread: thread, onPath } = link.dataset;
  state.highlight = id ? { id, seq: Number(messageSeq), thread, onPath: onPath !== 'false' } : null;
  if (link.getAttribute('href') === location.hash) {
    event.preventDefault();
    void route();
  }
}

/** The agents, threads, state, context, account and import panels. */
function wirePanels() {
  wireAgents();
  wireThreads();
  wireModelPicker();
  wireStatePanel();
  wireMemoryPanel();
  wireContextPanel();
  wireAccount();
  wireImportDialog();
}

void start();

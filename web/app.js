// @ts-check
// The chat page: a sidebar of the caller's conversations and one conversation, whose replies
// stream in through POST /api/chat/stream. See docs/api.md for every route used here. This file
// starts the page, wires its controls and says which part renders which change of the state
// (subscribeViews). Each part lives in a module of its own; a module changes the state and says
// so, rather than calling another's render, and no import cycle joins them (`npm run lint`).
// The modules of web/:
//   state.js         what the page knows (one object), the API client it shares, and subscribe/changed/flush
//   api.js           the HTTP API: JSON routes, streaming routes, its errors
//   event-stream.js  server-sent events read from a fetch body (eventsource-parser)
//   dom.js           small helpers for the page's elements
//   auth.js          the API key: asking for it, keeping it
//   agents.js        the agent picker and agents' names
//   model-picker.js  the model of the conversation shown, or of the next new chat
//   list.js          the conversation list and its search
//   list-filters.js  the Chats, Pinned and Archived views of the list, and its tag filter
//   message-results.js  the messages a search found, below the conversations it found
//   snippet.js       search snippets as plain text, the words found marked
//   navigation.js    the address (#/c/<id>), opening a conversation, a new chat
//   conversation.js  the conversation shown: title bar, messages, the regenerate button
//   message-view.js  one message on screen, painted again as it changes
//   message-elements.js  which elements show which message; the end of the list; what screen readers hear
//   message-extras.js  a reply's reasoning and tool calls, collapsed
//   message-tools.js   under each message: time, model, status badge, copy, pin, fork
//   tool-button.js   the small icon buttons and the clipboard they copy to
//   render.js        replies as Markdown, made safe
//   code-highlight.js  syntax highlighting of code blocks (highlight.js)
//   math.js          math in replies (KaTeX)
//   late-renderers.js  KaTeX and highlight.js, loaded the first time a reply needs one
//   earlier.js       older messages: "Show earlier messages", loading back to a search result
//   branches.js      the tree: Edit on the user's messages, ‹ n/m › between versions, the path read again
//   composer.js      sending, regenerating, stopping; the Send and Stop buttons
//   message-box.js   the message box: its height, its character count, its focus
//   stream.js        a reply streaming in, followed, refused or cancelled
//   errors.js        errors shown plainly above the message box
//   dialogs.js       rename and delete
//   drawer.js        the list as a drawer on narrow screens
//   conversation-menu.js  pin, tags, archive, share, export of the conversation shown
//   share-dialog.js  the share links of the conversation shown
//   import-dialog.js  importing archives (ChatGPT, Open WebUI, our exports): checked, then confirmed
//   shortcuts.js     keyboard shortcuts and their help dialog
//   theme.js         the theme: the system's, light or dark
//   modal.js         the panels' dialogs: focus in and back, the API's messages per field
//   agent-editor.js  the agents dialog: list, editor, start a chat, delete
//   thread-panel.js  the thread picker and a new thread with its own system prompt
//   state-panel.js   the session state as JSON to edit
//   memory-panel.js  the long-term memories: search, add, edit, pin, delete
//   context-panel.js what the next turn sends the model, and the token usage
//   account.js       usage per day and model, export everything, erase everything
//   share.js         a page of its own (share.html): a share link's read-only conversation
//   connect.js       a page of its own (connect.html): connecting an MCP host
// Styles: css/*.css, one per part of the page (index.html links them in order).
import { wireAccount } from './account.js';
import { wireAgents } from './agent-editor.js';
import { connect, storeKey } from './auth.js';
import { send, stop, updateComposer } from './composer.js';
import { wireContextPanel } from './context-panel.js';
import { renderBusy, renderConversation } from './conversation.js';
import { installConversationMenu } from './conversation-menu.js';
import { remove, rename, wireRename } from './dialogs.js';
import { $ } from './dom.js';
import { closeDrawer, openDrawer, syncDrawer } from './drawer.js';
import { hideError } from './errors.js';
import { wireImportDialog } from './import-dialog.js';
import { wireListFilters } from './list-filters.js';
import { loadList, onSearchInput, refreshList, renderList } from './list.js';
import { autosize } from './message-box.js';
import { loadMessageHits, renderMessageHits } from './message-results.js';
import { repaint } from './message-view.js';
import { followElsewhere, navigate, route } from './navigation.js';
import { wireShortcuts } from './shortcuts.js';
import { wireTheme } from './theme.js';
import { changed, NARROW, state, subscribe } from './state.js';
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
  changed('list');
  changed('hits');
  changed('conversation');
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

/**
 * Who shows what: each part of the page renders the state when a module says it changed
 * (state.js), so that modules change the state and none calls another's render.
 */
function subscribeViews() {
  subscribe('conversation', renderConversation);
  subscribe('message', repaint);
  subscribe('busy', updateComposer);
  subscribe('busy', renderBusy);
  subscribe('list', renderList);
  subscribe('hits', renderMessageHits);
  subscribe('filters', () => void refreshList());
  subscribe('reply-elsewhere', followElsewhere);
}

function wire() {
  subscribeViews();
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
    if (
      event.key === 'Escape' &&
      document.body.classList.contains('drawer-open') &&
      !document.querySelector('dialog[open]')
    )
      closeDrawer();
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

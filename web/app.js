// The chat page: a sidebar of the caller's conversations and one conversation, whose replies
// stream in through POST /api/chat/stream. See docs/api.md for every route used here.
import { ApiError, NetworkError, createApi } from './api.js';
import { renderMarkdown } from './render.js';

const KEY_STORAGE = 'chat-memory.apiKey';
const PAGE_SIZE = 30;
const EARLIER_PAGE_SIZE = 100; // older messages fetched per "Show earlier messages"
const MAX_PAGE_SIZE = 200; // the most GET .../messages answers at once
const SEARCH_REACH = 5000; // at most this many older messages are loaded to reach the message a search found
const NARROW = window.matchMedia('(max-width: 760px)');

const $ = (id) => document.getElementById(id);
const el = (tag, className, text) => {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
};

const state = {
  key: readStoredKey(),
  singleUser: false,
  agents: new Map(), // id -> agent
  list: { items: [], nextCursor: null, query: '', searchable: false, seq: 0 },
  highlight: null, // the message to show when a search result is opened: { id, seq, thread }
  // { id, title, agentId, messages: [{ id, role, content, status, error }], nextBefore, loadingEarlier }; null: a new chat.
  // nextBefore: the `before` for the page of older messages, null once the first message is shown.
  current: null,
  newAgentId: '', // the agent picked for the next new conversation
  busy: null, // the reply being streamed: { conversationId, messageId, controller, stopRequested, reply }
};
const api = createApi(() => state.key);
const views = new Map(); // message object -> its elements in the list

// ---------------------------------------------------------------------------------------------
// Start: find out whether a key is needed (single-user mode answers without one), then load.

async function start() {
  wire();
  if (!(await connect())) return;
  await Promise.all([refreshList(), probeSearch()]);
  await route();
}

/** True once an API call (the agents, needed anyway) succeeds; asks for a key while the server answers 401. */
async function connect() {
  for (;;) {
    try {
      const agents = await api.json('GET', 'api/agents');
      setAgents(agents.items);
      state.singleUser = !state.key;
      renderAuthStatus();
      return true;
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) {
        const hadKey = Boolean(state.key);
        storeKey(null);
        await askForKey(hadKey ? 'The saved key was refused. Enter another one.' : '');
        continue;
      }
      showError(error);
      $('list-status').textContent = 'Not connected.';
      return false;
    }
  }
}

/** Shows the key dialog until the server accepts a key. */
function askForKey(message) {
  const dialog = $('key-dialog');
  const input = $('key-input');
  $('key-error').textContent = message;
  input.value = '';
  return new Promise((resolve) => {
    const submit = async (event) => {
      event.preventDefault();
      const key = input.value.trim();
      if (!key) return;
      $('key-error').textContent = 'Checking…';
      try {
        await api.json('GET', 'api/agents', undefined, { key });
      } catch (error) {
        $('key-error').textContent = error instanceof ApiError && error.status === 401 ? 'This key was refused.' : describe(error).text;
        input.select();
        return;
      }
      storeKey(key);
      $('key-form').removeEventListener('submit', submit);
      dialog.close();
      resolve();
    };
    $('key-form').addEventListener('submit', submit);
    dialog.showModal();
  });
}

function readStoredKey() {
  try {
    return localStorage.getItem(KEY_STORAGE);
  } catch {
    return null; // storage disabled: the key lasts as long as the page
  }
}

function storeKey(key) {
  state.key = key;
  try {
    if (key) localStorage.setItem(KEY_STORAGE, key);
    else localStorage.removeItem(KEY_STORAGE);
  } catch {
    // storage disabled
  }
  renderAuthStatus();
}

function renderAuthStatus() {
  $('auth-status').textContent = state.key ? 'Signed in with an API key.' : state.singleUser ? 'Single-user mode: no API key needed.' : '';
  $('forget-key').hidden = !state.key;
}

async function forgetKey() {
  detachStream();
  storeKey(null);
  state.current = null;
  state.list.items = [];
  renderList();
  renderConversation();
  history.replaceState(null, '', location.pathname);
  if (await connect()) {
    await Promise.all([refreshList(), probeSearch()]);
    await route();
  }
}

// ---------------------------------------------------------------------------------------------
// Agents

async function loadAgents() {
  try {
    setAgents((await api.json('GET', 'api/agents')).items);
  } catch (error) {
    showError(error);
  }
}

function setAgents(items) {
  state.agents = new Map(items.map((a) => [a.id, a]));
  const select = $('agent-select');
  const options = [new Option('No agent', '')];
  for (const agent of items) options.push(new Option(agentLabel(agent), agent.id));
  select.replaceChildren(...options);
  if (!state.agents.has(state.newAgentId)) state.newAgentId = '';
  select.value = state.newAgentId;
}

const agentLabel = (agent) => (agent.emoji ? `${agent.emoji} ${agent.name}` : agent.name);

function agentName(agentId) {
  if (!agentId) return 'No agent';
  const agent = state.agents.get(agentId);
  return agent ? agentLabel(agent) : `Agent ${agentId.slice(0, 8)}`;
}

// ---------------------------------------------------------------------------------------------
// The conversation list, with search where the server offers it (GET /api/conversations?q=)

async function refreshList() {
  await loadList(false);
}

async function loadList(more) {
  const list = state.list;
  const seq = ++list.seq;
  const params = new URLSearchParams({ limit: String(PAGE_SIZE) });
  if (list.query) params.set('q', list.query); // a search answers one ranked page
  else if (more && list.nextCursor) params.set('cursor', list.nextCursor);
  try {
    const page = await api.json('GET', `api/conversations?${params}`);
    if (seq !== list.seq) return; // a newer request (another search) won
    list.items = more ? [...list.items, ...page.items] : page.items;
    list.nextCursor = page.nextCursor;
    renderList();
  } catch (error) {
    if (seq !== list.seq) return;
    if (list.query && unknownQ(error)) {
      // The server does not know ?q= after all: no search.
      setSearchable(false);
      return refreshList();
    }
    showError(error);
  }
}

/** Search is offered only if the server accepts ?q= (one without search answers 400). */
async function probeSearch() {
  try {
    await api.json('GET', 'api/conversations?limit=1&q=probe');
    setSearchable(true);
  } catch {
    setSearchable(false);
  }
}

const unknownQ = (error) => error instanceof ApiError && error.status === 400 && /\bq should not exist/.test(error.message);

function setSearchable(searchable) {
  state.list.searchable = searchable;
  $('search-form').hidden = !searchable;
  if (!searchable) {
    state.list.query = '';
    $('search').value = '';
  }
}

let searchTimer;
function onSearchInput() {
  clearTimeout(searchTimer);
  searchTimer = setTimeout(() => {
    state.list.query = $('search').value.trim();
    state.list.nextCursor = null;
    void refreshList();
  }, 250);
}

function renderList() {
  const { items, nextCursor, query } = state.list;
  const currentId = state.current?.id;
  $('conversation-list').replaceChildren(
    ...items.map((c) => {
      const link = el('a', 'conversation');
      link.href = `#/c/${c.id}`;
      if (c.id === currentId) link.setAttribute('aria-current', 'page');
      if (query && c.messageId) {
        link.dataset.messageId = c.messageId;
        link.dataset.messageSeq = String(c.messageSeq);
        link.dataset.messageThread = c.messageThread;
      }
      link.append(el('span', 'conversation-title', c.title || 'Untitled'));
      const meta = [c.pinned ? 'Pinned' : null, c.agentId ? agentName(c.agentId) : null, when(c.updatedAt)].filter(Boolean).join(' · ');
      link.append(el('span', 'conversation-meta', meta));
      if (query && c.snippet) link.append(snippetView(c.snippet));
      const item = el('li');
      item.append(link);
      return item;
    }),
  );
  $('list-status').textContent = items.length ? '' : query ? 'No conversation matches.' : 'No conversations yet.';
  $('load-more').hidden = !nextCursor;
}

/** A search snippet: the matched words come in [brackets], shown marked. */
function snippetView(snippet) {
  const span = el('span', 'conversation-snippet');
  snippet.split(/(\[[^\]]*\])/).forEach((part, i) => {
    if (i % 2 === 1) span.append(el('mark', '', part.slice(1, -1)));
    else if (part) span.append(part);
  });
  return span;
}

function when(iso) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const today = new Date().toDateString() === date.toDateString();
  return today ? date.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' }) : date.toLocaleDateString();
}

// ---------------------------------------------------------------------------------------------
// Navigation: #/c/<id> is a conversation, anything else a new chat. Reloading keeps the place.

const CONVERSATION_HASH = /^#\/c\/([0-9a-f-]{36})$/i;

async function route() {
  const match = CONVERSATION_HASH.exec(location.hash);
  const fromDrawer = document.body.classList.contains('drawer-open');
  closeDrawer(false);
  if (match) await openConversation(match[1]);
  else newChat();
  if (fromDrawer) $('title').focus(); // the list is out of reach again: continue at the top of the chat
}

function navigate(hash) {
  if (location.hash === hash) void route();
  else location.hash = hash;
}

function newChat() {
  detachStream();
  hideError();
  state.current = null;
  $('agent-select').value = state.newAgentId;
  renderConversation();
  renderList();
  focusComposer();
}

async function openConversation(id, { keepError = false } = {}) {
  detachStream();
  if (!keepError) hideError();
  if (state.current?.id !== id) {
    state.current = { id, title: state.list.items.find((c) => c.id === id)?.title ?? '…', agentId: null, messages: [], loading: true };
    renderConversation();
  }
  let conversation;
  try {
    conversation = await api.json('GET', `api/conversations/${id}?thread=main`);
  } catch (error) {
    if (state.current?.id !== id) return;
    state.current = null;
    history.replaceState(null, '', location.pathname);
    renderConversation();
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
    messages: conversation.messages.map(toViewMessage),
    nextBefore: conversation.nextBefore ?? null, // opening returns the newest messages only
    loadingEarlier: false,
  };
  renderConversation();
  renderList();
  focusComposer();
  void showHighlight(state.current, highlight); // may load older pages: the reply below is followed meanwhile
  // A reply still being generated (by an earlier visit, another tab, another client): follow it.
  const last = state.current.messages.at(-1);
  if (last?.role === 'assistant' && last.status === 'streaming') await follow(state.current, last);
}

/** A message as the page keeps it: the API's fields that the view uses. */
const toViewMessage = ({ id, role, content, status, error }) => ({ id, role, content, status, error });

/**
 * "Show earlier messages": prepends the page of messages older than those shown, keeping the
 * reader on the message they were reading.
 */
async function showEarlier() {
  const conversation = state.current;
  if (!conversation?.id || conversation.nextBefore == null || conversation.loadingEarlier) return;
  hideError();
  const hadFocus = document.activeElement === $('show-earlier');
  let articles;
  try {
    articles = await loadEarlier(conversation, conversation.nextBefore - EARLIER_PAGE_SIZE); // one page
  } catch (error) {
    if (state.current !== conversation) return; // not the conversation on screen any more
    if (hadFocus) $('show-earlier')?.focus(); // a disabled button drops the focus: give it back
    showError(error);
    return;
  }
  if (!articles) return;
  $('announcer').textContent = `${shownText(articles.length)}${conversation.nextBefore == null ? ', from the first one' : ''}.`;
  if (!hadFocus) return;
  const button = $('show-earlier');
  if (button) {
    button.focus({ preventScroll: true });
  } else if (articles.length) {
    // The button is gone: continue from the newest of the messages just shown, which sits right
    // above where the reader was.
    const next = articles.at(-1);
    next.tabIndex = -1;
    next.focus({ preventScroll: true });
  }
}

const shownText = (n) => `${n} earlier ${n === 1 ? 'message' : 'messages'} shown`;

/**
 * Loads the older messages back to seq `fromSeq`, in pages of at most 200 from `nextBefore`, so
 * the list never has a gap. Asking for `nextBefore - fromSeq` messages reaches `fromSeq` exactly
 * (seqs are unique per conversation; other threads in between only take it further back). The
 * button shows "Loading…" meanwhile, so nothing else asks for a page.
 *
 * Pages arriving after another conversation (or this one, reopened) was shown are dropped: the
 * answer is then null, else the new messages' elements, oldest first. A failed request throws;
 * the pages before it stay, and `nextBefore` stays right.
 */
async function loadEarlier(conversation, fromSeq) {
  conversation.loadingEarlier = true;
  paintEarlier($('show-earlier'), conversation);
  const shown = [];
  try {
    while (conversation.nextBefore != null && conversation.nextBefore > fromSeq) {
      const limit = Math.min(MAX_PAGE_SIZE, conversation.nextBefore - fromSeq);
      const params = new URLSearchParams({ before: String(conversation.nextBefore), limit: String(limit), thread: 'main' });
      const page = await api.json('GET', `api/conversations/${conversation.id}/messages?${params}`);
      if (state.current !== conversation) return null;
      shown.unshift(...prependEarlier(conversation, page));
    }
  } finally {
    conversation.loadingEarlier = false;
    if (state.current === conversation) paintEarlier($('show-earlier'), conversation);
  }
  return shown;
}

/** Puts a page of older messages above those shown; answers their elements. */
function prependEarlier(conversation, page) {
  const earlier = page.items.map(toViewMessage);
  conversation.messages.unshift(...earlier);
  conversation.nextBefore = page.nextBefore;
  // Everything below the new messages stays as it is: keeping the distance to the end of the
  // list keeps the reader's message where it was on screen (no jump to the bottom or the top).
  const box = $('messages');
  const fromEnd = box.scrollHeight - box.scrollTop;
  const articles = earlier.map(messageView);
  const button = $('show-earlier');
  if (button) button.after(...articles);
  else box.prepend(...articles);
  paintEarlier(button, conversation);
  box.scrollTop = box.scrollHeight - fromEnd;
  return articles;
}

/** The button above the oldest message shown, while older messages exist. */
function earlierView(conversation) {
  const button = el('button', 'button subtle show-earlier');
  button.type = 'button';
  button.id = 'show-earlier';
  button.addEventListener('click', () => void showEarlier());
  paintEarlier(button, conversation);
  return button;
}

/** Shows the button as the conversation's state says: busy while a page loads, gone after the first message. */
function paintEarlier(button, conversation) {
  if (!button) return;
  if (conversation.nextBefore == null) {
    button.remove();
    return;
  }
  button.disabled = Boolean(conversation.loadingEarlier); // one request at a time
  button.textContent = conversation.loadingEarlier ? 'Loading earlier messages…' : 'Show earlier messages';
}

/**
 * Brings the message that a search found into view and marks it. One older than those shown is
 * loaded first, with every message in between, so the list has no gap and "Show earlier
 * messages" goes on from there. The page shows only the main thread: a message in another one is
 * reported, as is one more than SEARCH_REACH messages back.
 */
async function showHighlight(conversation, target) {
  if (!target) return;
  if (target.thread !== 'main') {
    showError(new Error(`The message this search found is in the thread "${target.thread}", which this page does not show.`));
    return;
  }
  const found = () => conversation.messages.some((m) => m.id === target.id);
  if (!found() && conversation.nextBefore != null) {
    if (conversation.nextBefore - target.seq > SEARCH_REACH) {
      showError(
        new Error(
          `The message this search found is too far back to show: more than ${SEARCH_REACH.toLocaleString('en')} messages before the newest ones. “Show earlier messages” goes back a page at a time.`,
        ),
      );
      return;
    }
    let articles;
    try {
      articles = await loadEarlier(conversation, target.seq);
    } catch (error) {
      if (state.current === conversation) showError(error);
      return;
    }
    if (!articles) return; // another conversation is shown now
    $('announcer').textContent = `${shownText(articles.length)}, back to the message found.`;
  }
  for (const [message, view] of views) {
    if (message.id !== target.id) continue;
    view.article.classList.add('highlight');
    view.article.scrollIntoView({ block: 'center' });
  }
}

// ---------------------------------------------------------------------------------------------
// The conversation view

function renderConversation() {
  const conversation = state.current;
  const title = conversation ? conversation.title : 'New chat';
  $('title').textContent = title;
  document.title = `${title} · chat-memory`;
  $('agent-badge').hidden = !conversation;
  $('agent-badge').textContent = conversation ? (conversation.agentId ? `Agent: ${agentName(conversation.agentId)}` : 'No agent') : '';
  $('agent-picker').hidden = Boolean(conversation);
  $('conversation-actions').hidden = !conversation?.id;

  views.clear();
  const messages = conversation?.messages ?? [];
  const earlier = conversation?.nextBefore != null ? [earlierView(conversation)] : []; // none: the list stays :empty for a new chat
  $('messages').replaceChildren(...earlier, ...messages.map(messageView));
  $('empty-hint').hidden = Boolean(conversation);
  renderActions();
  updateComposer();
  scrollToEnd(true);
}

function messageView(message) {
  const article = el('article', `message ${message.role}`);
  article.append(el('h2', 'visually-hidden', message.role === 'user' ? 'You said:' : 'The assistant said:'));
  const body = el('div', 'message-body');
  const note = el('p', 'message-note');
  article.append(body, note);
  views.set(message, { article, body, note });
  paint(message);
  return article;
}

/** Shows a message's current text and status in its elements. */
function paint(message) {
  const view = views.get(message);
  if (!view) return; // not on screen (the user went to another conversation)
  if (message.role === 'user') view.body.textContent = message.content;
  else view.body.replaceChildren(renderMarkdown(message.content));
  const streaming = message.status === 'streaming';
  view.article.classList.toggle('streaming', streaming);
  view.article.classList.toggle('failed', message.status === 'failed');
  view.article.setAttribute('aria-busy', String(streaming));
  let note = '';
  if (streaming) note = message.content ? '' : 'Thinking…';
  else if (message.status === 'cancelled') note = 'Stopped.';
  else if (message.status === 'truncated') note = `Cut short: ${(message.error?.message ?? 'a limit was reached').replace(/\.?$/, '.')}`;
  else if (message.status === 'failed') note = `The reply failed: ${(message.error?.message ?? 'unknown error').replace(/\.?$/, '.')}`;
  view.note.textContent = note;
  view.note.hidden = !note;
}

let paintQueued = new Set();
/** Repaints a growing reply at most once per frame. */
function schedulePaint(message) {
  if (paintQueued.size === 0) {
    requestAnimationFrame(() => {
      const queued = paintQueued;
      paintQueued = new Set();
      for (const m of queued) paint(m);
      scrollToEnd(false);
    });
  }
  paintQueued.add(message);
}

/** The regenerate button after the last message, when there is something to answer again. */
function renderActions() {
  document.querySelector('.message-actions')?.remove();
  const conversation = state.current;
  const last = conversation?.messages.at(-1);
  if (!conversation?.id || !last || state.busy) return;
  if (last.role === 'assistant' && last.status === 'streaming') return;
  const actions = el('div', 'message-actions');
  const answered = last.role === 'assistant';
  const button = el('button', 'button subtle', answered ? 'Regenerate' : 'Get an answer');
  button.type = 'button';
  button.id = 'regenerate';
  if (answered) button.setAttribute('aria-label', 'Regenerate the last reply');
  button.addEventListener('click', () => void regenerate());
  actions.append(button);
  $('messages').append(actions);
}

/** Tells screen readers that a reply has finished, with its text (the list itself is not live). */
function announce(reply) {
  const text =
    reply.status === 'cancelled' ? 'Reply stopped.' : `Reply${reply.status === 'truncated' ? ' (cut short)' : ''}: ${views.get(reply)?.body.textContent ?? reply.content}`;
  $('announcer').textContent = text.length > 600 ? `${text.slice(0, 600)}…` : text;
}

function scrollToEnd(force) {
  const box = $('messages');
  const nearEnd = box.scrollHeight - box.scrollTop - box.clientHeight < 120;
  if (force || nearEnd) box.scrollTop = box.scrollHeight;
}

// ---------------------------------------------------------------------------------------------
// Sending, streaming, stopping, regenerating

async function send() {
  const input = $('message');
  const text = input.value;
  if (state.busy || !text.trim()) return;
  hideError();
  const isNew = !state.current;
  const body = { message: text };
  if (isNew) {
    if (state.newAgentId) body.agentId = state.newAgentId;
    state.current = { id: null, title: text.trim().slice(0, 60), agentId: state.newAgentId || null, messages: [] };
  } else {
    body.conversationId = state.current.id;
  }
  const conversation = state.current;
  const question = { id: null, role: 'user', content: text, status: 'complete', error: null };
  const reply = { id: null, role: 'assistant', content: '', status: 'streaming', error: null };
  conversation.messages.push(question, reply);
  input.value = '';
  autosize();
  renderConversation();

  const started = await streamReply(conversation, reply, 'POST', 'api/chat/stream', body, (turn) => {
    question.id = turn.userMessageId;
    if (isNew) {
      Object.assign(conversation, { id: turn.conversationId, title: turn.title, agentId: turn.agentId });
      if (state.current === conversation) {
        history.replaceState(null, '', `#/c/${turn.conversationId}`);
        renderConversation();
      }
      void refreshList();
    }
  });
  if (!started) {
    // Refused before anything was stored: take the bubbles back and give the text back.
    conversation.messages.splice(conversation.messages.indexOf(question), 2);
    if (state.current === conversation) {
      if (isNew) state.current = null;
      if (!input.value) input.value = text;
      autosize();
      renderConversation();
    }
  }
  void refreshList();
}

async function regenerate() {
  const conversation = state.current;
  if (!conversation?.id || state.busy) return;
  hideError();
  const last = conversation.messages.at(-1);
  let reply = last;
  let before = null;
  if (last?.role === 'assistant') {
    before = { content: last.content, status: last.status, error: last.error };
    Object.assign(last, { content: '', status: 'streaming', error: null });
  } else {
    reply = { id: null, role: 'assistant', content: '', status: 'streaming', error: null };
    conversation.messages.push(reply);
  }
  renderConversation();
  const started = await streamReply(conversation, reply, 'POST', `api/conversations/${conversation.id}/regenerate/stream`, {});
  if (!started) {
    if (before) Object.assign(reply, before);
    else conversation.messages.splice(conversation.messages.indexOf(reply), 1);
    if (state.current === conversation) renderConversation();
  }
  void refreshList();
}

/** Follows a reply that is being generated (GET .../messages/:messageId/stream). */
async function follow(conversation, reply) {
  reply.content = ''; // the first delta carries the whole text so far
  return streamReply(conversation, reply, 'GET', `api/conversations/${conversation.id}/messages/${reply.id}/stream`, undefined, null, reply.id);
}

/**
 * Streams one reply into `reply`. Resolves true once the reply exists on the server (a
 * `conversation` event, or following a known message), false when the request was refused
 * before (nothing stored). Errors are shown; the stream's end updates the reply's status.
 */
async function streamReply(conversation, reply, method, path, body, onStart, knownMessageId) {
  const busy = {
    conversationId: conversation.id,
    messageId: knownMessageId ?? null,
    controller: new AbortController(),
    stopRequested: false,
    reply,
  };
  state.busy = busy;
  updateComposer();
  renderActions();
  let started = Boolean(knownMessageId);
  let ended = false;
  try {
    await api.stream(method, path, body, {
      signal: busy.controller.signal,
      onEvent: (name, data) => {
        if (name === 'conversation') {
          started = true;
          busy.conversationId = data.conversationId;
          busy.messageId = reply.id = data.messageId;
          onStart?.(data);
          if (busy.stopRequested) void cancel(busy);
        } else if (name === 'delta') {
          reply.content += data.text;
          schedulePaint(reply);
        } else if (name === 'done') {
          ended = true;
          const error = data.reason ? { statusCode: data.reason.code === 'reply_too_long' ? 413 : 504, message: data.reason.message } : null;
          Object.assign(reply, { content: data.reply, status: data.status, error });
          if (state.current === conversation) announce(reply);
        } else if (name === 'error') {
          ended = true;
          Object.assign(reply, { content: data.partial ?? reply.content, status: 'failed', error: { statusCode: data.statusCode, message: data.message } });
          if (state.current === conversation) showError(new ApiError(data.statusCode, data));
        }
      },
    });
    if (!ended && !busy.controller.signal.aborted) {
      // The server ended the stream without done or error (it is shutting down, say): the
      // reply goes on being generated somewhere; follow it again from the stored text.
      if (busy.messageId && !knownMessageId && state.busy === busy) {
        state.busy = null;
        return (await follow(conversation, reply)) || started;
      }
      reply.status = 'failed';
      reply.error = { message: 'The connection ended before the reply was finished; open the conversation again to see it' };
    }
  } catch (error) {
    if (busy.controller.signal.aborted) return started; // the user went elsewhere; the server carries on
    if (started) {
      // The connection broke mid-reply; the server keeps generating and storing it.
      const message = 'The connection was lost while the reply was streaming; open the conversation again to see the rest';
      Object.assign(reply, { status: 'failed', error: { message } });
      if (state.current === conversation) showError(new Error(message));
    } else if (state.current === conversation) {
      await handleRefusal(error, conversation);
    }
  } finally {
    if (state.busy === busy) state.busy = null;
    paint(reply);
    if (state.current === conversation) {
      updateComposer();
      renderActions();
      scrollToEnd(false);
    }
  }
  return started;
}

/** A request refused before its stream started: say why, and do what the answer allows. */
async function handleRefusal(error, conversation) {
  if (error instanceof ApiError && error.status === 401) {
    storeKey(null);
    await askForKey('The server refused the API key. Enter it again, then send again.');
    return;
  }
  showError(error);
  // 409: a reply is still being generated in this conversation (another tab, another client):
  // show it as it arrives, so it can be stopped or awaited.
  if (error instanceof ApiError && error.status === 409 && error.body.messageId && error.body.conversationId === conversation.id) {
    setTimeout(() => void openConversation(conversation.id, { keepError: true }), 0);
  }
}

async function stop() {
  const busy = state.busy;
  if (!busy || busy.stopRequested) return;
  busy.stopRequested = true;
  $('stop').disabled = true;
  if (busy.messageId) await cancel(busy); // otherwise as soon as the conversation event names it
}

/** POST .../cancel: the stream then ends with done and status "cancelled". */
async function cancel(busy) {
  try {
    await api.json('POST', `api/conversations/${busy.conversationId}/messages/${busy.messageId}/cancel`);
  } catch (error) {
    showError(error);
  }
}

/** Stops listening to the reply being streamed; the server goes on generating and storing it. */
function detachStream() {
  const busy = state.busy;
  if (!busy) return;
  state.busy = null;
  busy.controller.abort();
}

function updateComposer() {
  const busy = Boolean(state.busy);
  $('send').hidden = busy;
  $('stop').hidden = !busy;
  $('stop').disabled = Boolean(state.busy?.stopRequested);
}

// ---------------------------------------------------------------------------------------------
// Rename and delete

async function rename() {
  const conversation = state.current;
  if (!conversation?.id) return;
  const dialog = $('rename-dialog');
  const input = $('rename-input');
  input.value = conversation.title;
  dialog.returnValue = '';
  dialog.showModal();
  input.select();
  await new Promise((resolve) => dialog.addEventListener('close', resolve, { once: true }));
  const title = input.value.trim();
  if (dialog.returnValue !== 'ok' || !title || title === conversation.title) return;
  try {
    const updated = await api.json('PATCH', `api/conversations/${conversation.id}`, { title });
    conversation.title = updated?.title ?? title;
  } catch (error) {
    if (error instanceof ApiError && (error.status === 405 || (error.status === 404 && /^Cannot PATCH/.test(error.message)))) {
      showError(new Error('This server cannot rename conversations yet (PATCH /api/conversations/:id is missing).'));
    } else {
      showError(error);
    }
    return;
  }
  if (state.current === conversation) renderConversation();
  await refreshList();
}

async function remove() {
  const conversation = state.current;
  if (!conversation?.id) return;
  $('confirm-text').textContent = `“${conversation.title}” and all its messages will be deleted. This cannot be undone.`;
  const dialog = $('confirm-dialog');
  dialog.returnValue = '';
  dialog.showModal();
  await new Promise((resolve) => dialog.addEventListener('close', resolve, { once: true }));
  if (dialog.returnValue !== 'ok') return;
  if (state.busy?.conversationId === conversation.id) detachStream();
  try {
    await api.json('DELETE', `api/conversations/${conversation.id}`);
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 404)) return showError(error); // 404: already gone
  }
  state.list.items = state.list.items.filter((c) => c.id !== conversation.id);
  renderList();
  navigate('#/');
  await refreshList();
}

// ---------------------------------------------------------------------------------------------
// Errors, shown plainly above the message box

function describe(error) {
  if (error instanceof NetworkError) return { title: 'Cannot reach the server.', text: 'Check that it is running, then try again.' };
  if (!(error instanceof ApiError)) return { title: 'Error.', text: error?.message ?? String(error) };
  const message = error.message;
  switch (error.status) {
    case 409:
      return { title: 'Busy (409).', text: message };
    case 429: {
      const when = error.retryAfter !== undefined ? `Try again in ${error.retryAfter} s.` : 'Wait a moment, then try again.';
      return { title: 'Rate limited (429).', text: /\bretry\b|try again/i.test(message) ? message : `${message} ${when}` };
    }
    case 502:
      return { title: 'The model is unavailable (502).', text: message };
    case 504:
      return { title: 'The model timed out (504).', text: message };
    case 503:
      return { title: 'Service unavailable (503).', text: message };
    default:
      return { title: `${error.body.error ?? 'Error'} (${error.status}).`, text: message };
  }
}

function showError(error) {
  const { title, text } = describe(error);
  $('error-title').textContent = title;
  $('error-text').textContent = text;
  $('error').hidden = false;
}

function hideError() {
  $('error').hidden = true;
}

// ---------------------------------------------------------------------------------------------
// The drawer (narrow screens), the composer, and the event wiring

function openDrawer() {
  document.body.classList.add('drawer-open');
  $('open-drawer').setAttribute('aria-expanded', 'true');
  $('backdrop').hidden = false;
  syncDrawer();
  $('new-chat').focus();
}

function closeDrawer(returnFocus = true) {
  if (!document.body.classList.contains('drawer-open')) return;
  document.body.classList.remove('drawer-open');
  $('open-drawer').setAttribute('aria-expanded', 'false');
  $('backdrop').hidden = true;
  syncDrawer();
  if (returnFocus && NARROW.matches) $('open-drawer').focus();
}

/** On a narrow screen a closed drawer is out of reach of the keyboard and screen readers, and an open one is modal. */
function syncDrawer() {
  const open = document.body.classList.contains('drawer-open');
  $('sidebar').inert = NARROW.matches && !open;
  document.querySelector('main').inert = NARROW.matches && open;
}

function autosize() {
  const input = $('message');
  input.style.height = 'auto';
  input.style.height = `${Math.min(input.scrollHeight, 200)}px`;
}

function focusComposer() {
  if (!NARROW.matches) $('message').focus();
}

function wire() {
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
  $('agent-select').addEventListener('change', (event) => {
    state.newAgentId = event.target.value;
  });
  $('rename').addEventListener('click', () => void rename());
  $('delete').addEventListener('click', () => void remove());
  $('load-more').addEventListener('click', () => void loadList(true));
  $('search').addEventListener('input', onSearchInput);
  $('search-form').addEventListener('submit', (event) => event.preventDefault());
  $('forget-key').addEventListener('click', () => void forgetKey());
  $('error-dismiss').addEventListener('click', hideError);
  $('open-drawer').addEventListener('click', openDrawer);
  $('close-drawer').addEventListener('click', () => closeDrawer());
  $('backdrop').addEventListener('click', () => closeDrawer());
  $('conversation-list').addEventListener('click', (event) => {
    // Clicking the open conversation again reloads it (and closes the drawer, as any choice does).
    const link = event.target.closest('a');
    if (link) {
      const { messageId: id, messageSeq, messageThread: thread } = link.dataset;
      state.highlight = id ? { id, seq: Number(messageSeq), thread } : null;
    }
    if (link && link.getAttribute('href') === location.hash) {
      event.preventDefault();
      void route();
    }
  });
  $('key-dialog').addEventListener('cancel', (event) => event.preventDefault()); // a key is needed
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && document.body.classList.contains('drawer-open')) closeDrawer();
  });
  NARROW.addEventListener('change', () => {
    if (!NARROW.matches) closeDrawer(false);
    syncDrawer();
  });
  window.addEventListener('hashchange', () => void route());
  syncDrawer();
}

void start();

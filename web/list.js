// @ts-check
// The conversation list, with search where the server offers it (GET /api/conversations?q=).
import { ApiError } from './api.js';
import { agentName } from './agents.js';
import { $, el } from './dom.js';
import { showError } from './errors.js';
import { emptyListText, filterParams, noteTags } from './list-filters.js';
import { api, PAGE_SIZE, state } from './state.js';

/** @typedef {import('./state.js').Schemas} Schemas */

export async function refreshList() {
  await loadList(false);
}

/** @param {boolean} more the next page, after those shown */
export async function loadList(more) {
  const list = state.list;
  const seq = ++list.seq;
  const params = new URLSearchParams({ limit: String(PAGE_SIZE) });
  if (list.query) params.set('q', list.query); // a search answers one ranked page
  else if (more && list.nextCursor) params.set('cursor', list.nextCursor);
  filterParams(params);
  try {
    /** @type {Schemas['ConversationPageDto']} */
    const page = await api.json('GET', `api/conversations?${params}`);
    if (seq !== list.seq) return; // a newer request (another search) won
    list.items = more ? [...list.items, ...page.items] : page.items;
    list.nextCursor = page.nextCursor;
    noteTags(page.items);
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
export async function probeSearch() {
  try {
    await api.json('GET', 'api/conversations?limit=1&q=probe');
    setSearchable(true);
  } catch {
    setSearchable(false);
  }
}

/** @param {unknown} error */
const unknownQ = (error) => error instanceof ApiError && error.status === 400 && /\bq should not exist/.test(error.message);

/** @param {boolean} searchable */
function setSearchable(searchable) {
  state.list.searchable = searchable;
  $('search-form').hidden = !searchable;
  if (!searchable) {
    state.list.query = '';
    $('search', HTMLInputElement).value = '';
  }
}

/** @type {ReturnType<typeof setTimeout> | undefined} */
let searchTimer;
export function onSearchInput() {
  clearTimeout(searchTimer);
  searchTimer = setTimeout(() => {
    state.list.query = $('search', HTMLInputElement).value.trim();
    state.list.nextCursor = null;
    void refreshList();
  }, 250);
}

export function renderList() {
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
        link.dataset.messageThread = String(c.messageThread);
        link.dataset.onPath = String(c.onPath !== false);
      }
      link.append(el('span', 'conversation-title', c.title || 'Untitled'));
      const tags = c.tags.map((tag) => `#${tag}`).join(' ');
      const meta = [c.pinned ? 'Pinned' : null, c.archived ? 'Archived' : null, c.agentId ? agentName(c.agentId) : null, tags, when(c.updatedAt)].filter(Boolean).join(' · ');
      link.append(el('span', 'conversation-meta', meta));
      if (query && c.snippet) link.append(snippetView(c.snippet));
      // Opening it switches to that version (navigation.js): said before it is clicked.
      if (query && c.messageId && c.onPath === false) link.append(el('span', 'conversation-meta branch-note', 'In another version of the conversation'));
      const item = el('li');
      item.append(link);
      return item;
    }),
  );
  $('list-status').textContent = items.length ? '' : emptyListText();
  $('load-more').hidden = !nextCursor;
}

/**
 * A search snippet: the matched words come in [brackets], shown marked.
 * @param {string} snippet
 */
function snippetView(snippet) {
  const span = el('span', 'conversation-snippet');
  snippet.split(/(\[[^\]]*\])/).forEach((part, i) => {
    if (i % 2 === 1) span.append(el('mark', '', part.slice(1, -1)));
    else if (part) span.append(part);
  });
  return span;
}

/** @param {string} iso */
function when(iso) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const today = new Date().toDateString() === date.toDateString();
  return today ? date.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' }) : date.toLocaleDateString();
}

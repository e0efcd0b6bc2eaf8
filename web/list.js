// @ts-check
// The conversation list, with search where the server offers it (GET /api/conversations?q=): a
// search lists the best few conversations first ("More chats" lists more), then the messages it
// found (message-results.js).
import { ApiError } from './api.js';
import { agentName } from './agents.js';
import { $, el, listDate } from './dom.js';
import { showError } from './errors.js';
import { emptyListText, filterParams, noteTags } from './list-filters.js';
import { loadMessageHits } from './message-results.js';
import { snippetView } from './snippet.js';
import { api, PAGE_SIZE, SEARCH_CHATS, SEARCH_CHATS_MORE, state } from './state.js';

/** @typedef {import('./state.js').Schemas} Schemas */

/** Reads the list again, and the messages found when a search is shown. */
export async function refreshList() {
  await Promise.all([loadList(false), loadMessageHits(false)]);
}

/**
 * @param {boolean} more the next page, after those shown; for a search, which answers one ranked
 * page, more conversations of it ("More chats")
 */
export async function loadList(more) {
  const list = state.list;
  const seq = ++list.seq;
  const params = new URLSearchParams({ limit: String(PAGE_SIZE) });
  if (list.query) {
    if (more) list.searchLimit = SEARCH_CHATS_MORE;
    params.set('q', list.query);
    params.set('limit', String(list.searchLimit + 1)); // one more: whether "More chats" has more to show
  } else if (more && list.nextCursor) params.set('cursor', list.nextCursor);
  filterParams(params);
  const hadFocus = document.activeElement === $('load-more');
  const shown = list.items.length;
  try {
    /** @type {Schemas['ConversationPageDto']} */
    const page = await api.json('GET', `api/conversations?${params}`);
    if (seq !== list.seq) return; // a newer request (another search) won
    list.items = list.query
      ? page.items.slice(0, list.searchLimit)
      : more
        ? [...list.items, ...page.items]
        : page.items;
    list.moreFound =
      Boolean(list.query) && page.items.length > list.searchLimit && list.searchLimit < SEARCH_CHATS_MORE;
    list.nextCursor = page.nextCursor;
    noteTags(page.items);
    renderList();
    // The button gone with the last page: continue from the first conversation just shown.
    if (more && hadFocus && $('load-more').hidden) $('conversation-list').querySelectorAll('a')[shown]?.focus();
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

/** @param {unknown} error */
const unknownQ = (error) =>
  error instanceof ApiError && error.status === 400 && /\bq should not exist/.test(error.message);

/** @param {boolean} searchable */
function setSearchable(searchable) {
  state.list.searchable = searchable;
  $('search-form').hidden = !searchable;
  if (!searchable) {
    state.list.query = '';
    $('search', HTMLInputElement).value = '';
    void loadMessageHits(false);
  }
}

/** @type {ReturnType<typeof setTimeout> | undefined} */
let searchTimer;
export function onSearchInput() {
  clearTimeout(searchTimer);
  searchTimer = setTimeout(() => {
    state.list.query = $('search', HTMLInputElement).value.trim();
    state.list.nextCursor = null;
    state.list.searchLimit = SEARCH_CHATS;
    state.hits.items = [];
    state.hits.nextCursor = null;
    void loadList(false);
    void loadMessageHits(false, Boolean(state.list.query));
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
      const meta = [
        c.pinned ? 'Pinned' : null,
        c.archived ? 'Archived' : null,
        c.agentId ? agentName(c.agentId) : null,
        tags,
        listDate(c.updatedAt),
      ]
        .filter(Boolean)
        .join(' · ');
      link.append(el('span', 'conversation-meta', meta));
      if (query && c.snippet) link.append(snippetView(c.snippet, query));
      // Opening it switches to that version (navigation.js): said before it is clicked.
      if (query && c.messageId && c.onPath === false)
        link.append(el('span', 'conversation-meta branch-note', 'In another version of the conversation'));
      const item = el('li');
      item.append(link);
      return item;
    }),
  );
  $('list-status').textContent = items.length ? '' : emptyListText();
  $('chat-results-heading').hidden = !query;
  $('load-more').hidden = query ? !state.list.moreFound : !nextCursor;
  $('load-more').textContent = query ? 'More chats' : 'Show more';
}

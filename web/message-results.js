// @ts-check
// The messages a search found (GET /api/search), below the conversations it found: several per
// conversation, best first, each with its conversation's title, who said it, when, and the words
// found marked; "More messages" follows nextCursor. Opening one opens its conversation at that
// message, switching to its version of the conversation when it is on another branch
// (navigation.js, earlier.js).
import { $, el, listDate } from './dom.js';
import { showError } from './errors.js';
import { snippetView } from './snippet.js';
import { api, SEARCH_HITS, state } from './state.js';

/** @typedef {import('./state.js').Schemas} Schemas */
/** @typedef {import('./state.js').MessageHit} MessageHit */

const MAX_LIMIT = 100; // the most GET /api/search answers at once

/** @type {Record<MessageHit['role'], string>} */
const SPEAKER = { user: 'You', assistant: 'Assistant', system: 'System prompt', tool: 'Tool result' };

/**
 * Reads the message results of the search in the box: again from the best (as many as shown, so
 * results read again after a change keep their length), or the next page after those shown.
 * @param {boolean} more
 * @param {boolean} [announce] tell screen readers how many were found (a new search)
 */
export async function loadMessageHits(more, announce = false) {
  const hits = state.hits;
  const seq = ++hits.seq;
  const query = state.list.query;
  if (!query) {
    hits.items = [];
    hits.nextCursor = null;
    renderMessageHits();
    return;
  }
  const next = more ? hits.nextCursor : null;
  const params = new URLSearchParams({
    q: query,
    limit: String(next ? SEARCH_HITS : Math.min(MAX_LIMIT, Math.max(SEARCH_HITS, hits.items.length))),
  });
  if (next) params.set('cursor', next);
  const button = $('more-hits', HTMLButtonElement);
  const hadFocus = document.activeElement === button;
  if (next) paintMore(true);
  /** @type {Schemas['MessageSearchPageDto']} */
  let page;
  try {
    page = await api.json('GET', `api/search?${params}`);
  } catch (error) {
    if (seq !== hits.seq) return;
    paintMore(false);
    showError(error);
    return;
  }
  if (seq !== hits.seq) return; // a newer search (or the same, read again) won
  const shown = next ? hits.items.length : 0;
  hits.items = next ? [...hits.items, ...page.items] : page.items;
  hits.nextCursor = page.nextCursor;
  renderMessageHits();
  if (announce) $('announcer').textContent = foundText(page);
  if (!next) return;
  $('announcer').textContent = `${page.items.length} more ${page.items.length === 1 ? 'message' : 'messages'} shown.`;
  // The button gone with the last page: continue from the first message just shown.
  if (hadFocus && button.hidden) $('message-results').querySelectorAll('a')[shown]?.focus();
}

/** @param {Schemas['MessageSearchPageDto']} page */
function foundText(page) {
  const n = page.items.length;
  if (n === 0) return 'No message found.';
  return `${n}${page.nextCursor ? ' or more' : ''} ${n === 1 && !page.nextCursor ? 'message' : 'messages'} found, listed below the conversations.`;
}

export function renderMessageHits() {
  const { items, nextCursor } = state.hits;
  const query = state.list.query;
  $('message-results-box').hidden = !query || items.length === 0;
  $('message-results').replaceChildren(...items.map((hit) => hitView(hit, query)));
  paintMore(false);
  $('more-hits').hidden = !nextCursor;
}

/** @param {boolean} loading */
function paintMore(loading) {
  const button = $('more-hits', HTMLButtonElement);
  button.disabled = loading; // one page at a time
  button.textContent = loading ? 'Loading more messages…' : 'More messages';
}

/**
 * One result: a link to its conversation, carrying where the message is (read on click, app.js).
 * @param {MessageHit} hit
 * @param {string} query
 */
function hitView(hit, query) {
  const link = el('a', 'conversation message-hit');
  link.href = `#/c/${hit.conversationId}`;
  link.dataset.messageId = hit.messageId;
  link.dataset.messageSeq = String(hit.seq);
  link.dataset.messageThread = hit.thread;
  link.dataset.onPath = String(hit.onPath);
  link.append(el('span', 'conversation-title', hit.conversationTitle || 'Untitled'));
  const meta = [
    SPEAKER[hit.role] ?? hit.role,
    hit.thread === 'main' ? null : `thread “${hit.thread}”`,
    listDate(hit.createdAt),
  ]
    .filter(Boolean)
    .join(' · ');
  link.append(el('span', 'conversation-meta', meta));
  link.append(snippetView(hit.snippet, query));
  // Opening it switches to that version (navigation.js): said before it is clicked.
  if (!hit.onPath) link.append(el('span', 'conversation-meta branch-note', 'In another version of the conversation'));
  const item = el('li');
  item.append(link);
  return item;
}

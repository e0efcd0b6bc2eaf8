// @ts-check
// Which conversations the list shows: the "Chats", "Pinned" (?pinned=true) or "Archived" view
// (GET /api/conversations?archived=true), and a tag to filter by (?tag=). Pinned conversations
// come first in every view (?pinnedFirst=true). A search looks through all
// of them (the server's ?q= includes archived conversations), so the filters wait meanwhile. A
// change of view or tag says so (the `filters` topic): the list is read again.
// The tags offered are those seen on the conversations listed so far (the API has no list of tags).
import { $ } from './dom.js';
import { changed, state } from './state.js';

/** @typedef {import('./state.js').ConversationSummary} ConversationSummary */

/** Every tag seen this visit, for the filter. */
const knownTags = new Set();

/** @param {URLSearchParams} params a list request's, completed with the filters */
export function filterParams(params) {
  if (state.list.query) return;
  params.set('pinnedFirst', 'true');
  if (state.list.archived) params.set('archived', 'true');
  if (state.list.pinnedOnly) params.set('pinned', 'true');
  if (state.list.tag) params.set('tag', state.list.tag);
}

/** What the list says when it is empty: what it shows, and what to do. */
export function emptyListText() {
  const { query, archived, pinnedOnly, tag } = state.list;
  if (query) return `No conversation matches “${query}”. Try other words.`;
  if (tag)
    return `No ${archived ? 'archived ' : pinnedOnly ? 'pinned ' : ''}conversation is tagged “${tag}”. Choose “All tags” to see the others.`;
  if (pinnedOnly)
    return 'No pinned conversations. Pin one from its “More actions” menu to keep it at the top of the list.';
  if (archived)
    return 'No archived conversations. Archive one from its “More actions” menu to keep it out of the list without deleting it.';
  return 'No conversations yet. Write a message to start one, or import conversations (from ChatGPT, Open WebUI, or exported from here).';
}

/**
 * Remembers the tags of listed conversations, and offers them in the filter.
 * @param {Array<Pick<ConversationSummary, 'tags'>>} items
 */
export function noteTags(items) {
  const before = knownTags.size;
  for (const item of items) for (const tag of item.tags ?? []) knownTags.add(tag);
  if (knownTags.size !== before || state.list.tag) renderTagFilter();
}

function renderTagFilter() {
  const select = $('tag-filter', HTMLSelectElement);
  if (state.list.tag) knownTags.add(state.list.tag);
  const options = [new Option('All tags', '')];
  for (const tag of [...knownTags].sort()) options.push(new Option(`#${tag}`, tag));
  select.replaceChildren(...options);
  select.value = state.list.tag;
  $('tag-filter-box').hidden = knownTags.size === 0;
}

/**
 * Shows the "Chats", "Pinned" or "Archived" view.
 * @param {'chats' | 'pinned' | 'archived'} view
 */
export function showView(view) {
  state.list.archived = view === 'archived';
  state.list.pinnedOnly = view === 'pinned';
  for (const name of ['chats', 'pinned', 'archived'])
    $(`view-${name}`).setAttribute('aria-pressed', String(name === view));
  state.list.nextCursor = null;
  changed('filters');
}

/**
 * Only conversations with this tag ('' for all); the list is reloaded.
 * @param {string} tag
 */
export function filterByTag(tag) {
  state.list.tag = tag;
  renderTagFilter();
  state.list.nextCursor = null;
  changed('filters');
}

export function wireListFilters() {
  $('view-chats').addEventListener('click', () => showView('chats'));
  $('view-pinned').addEventListener('click', () => showView('pinned'));
  $('view-archived').addEventListener('click', () => showView('archived'));
  const select = $('tag-filter', HTMLSelectElement);
  select.addEventListener('change', () => filterByTag(select.value));
}

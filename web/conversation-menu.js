// @ts-check
// The open conversation's "More actions": pin, tags, archive (PATCH /api/conversations/:id),
// export as JSON or Markdown (GET .../export?format=); its labels under the title (pinned,
// archived, tags, each tag a filter). Importing is import-dialog.js.
import { ApiError } from './api.js';
import { $, el } from './dom.js';
import { showError } from './errors.js';
import { filterByTag } from './list-filters.js';
import { refreshList } from './list.js';
import { openShareDialog } from './share-dialog.js';
import { api, changed, state } from './state.js';

/** @typedef {import('./state.js').Schemas} Schemas */
/** @typedef {import('./state.js').OpenConversation} OpenConversation */

/** @type {HTMLButtonElement} */
let menuButton;
/** @type {HTMLElement} */
let menu;
/** @type {Record<'pin' | 'tags' | 'archive' | 'share' | 'json' | 'markdown', HTMLButtonElement>} */
let items;

/** Builds the menu beside the rename button, and the labels under the title. */
export function installConversationMenu() {
  const box = el('div', 'more-actions');
  menuButton = el('button', 'icon-button');
  menuButton.type = 'button';
  menuButton.id = 'more-actions';
  menuButton.title = 'More actions';
  menuButton.setAttribute('aria-label', 'More actions');
  menuButton.setAttribute('aria-expanded', 'false');
  menuButton.setAttribute('aria-controls', 'more-actions-menu');
  menuButton.append(dots());
  menu = el('div', 'more-menu');
  menu.id = 'more-actions-menu';
  menu.hidden = true;
  /** @param {string} text @param {() => Promise<void>} action */
  const item = (text, action) => {
    const button = el('button', 'menu-item', text);
    button.type = 'button';
    button.addEventListener('click', () => {
      closeMenu(true); // a dialog it opens gives the focus back to the menu's button
      void action();
    });
    menu.append(button);
    return button;
  };
  items = {
    pin: item('Pin', togglePin),
    tags: item('Tags…', editTags),
    archive: item('Archive', toggleArchive),
    share: item('Share…', openShareDialog),
    json: item('Export as JSON', () => exportAs('json')),
    markdown: item('Export as Markdown', () => exportAs('markdown')),
  };
  box.append(menuButton, menu);
  $('delete').before(box);
  menuButton.addEventListener('click', () => (menu.hidden ? openMenu() : closeMenu(true)));
  box.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && !menu.hidden) {
      event.stopPropagation();
      closeMenu(true);
    }
  });
  box.addEventListener('focusout', (event) => {
    if (!(event.relatedTarget instanceof Node && box.contains(event.relatedTarget))) closeMenu(false);
  });
  document.addEventListener('click', (event) => {
    if (!menu.hidden && event.target instanceof Node && !box.contains(event.target)) closeMenu(false);
  });
  const labels = el('p', 'conversation-labels');
  labels.id = 'conversation-labels';
  $('title').after(labels);
  wireTagsDialog();
}

function dots() {
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('width', '20');
  svg.setAttribute('height', '20');
  svg.setAttribute('aria-hidden', 'true');
  const path = document.createElementNS('http://www.w3.org/2000/svg', 'path');
  path.setAttribute('fill', 'currentColor');
  path.setAttribute(
    'd',
    'M12 8a2 2 0 1 0 0-4 2 2 0 0 0 0 4m0 6a2 2 0 1 0 0-4 2 2 0 0 0 0 4m0 6a2 2 0 1 0 0-4 2 2 0 0 0 0 4',
  );
  svg.append(path);
  return svg;
}

function openMenu() {
  menu.hidden = false;
  menuButton.setAttribute('aria-expanded', 'true');
  /** @type {HTMLButtonElement | null} */ (menu.querySelector('button'))?.focus();
}

/** @param {boolean} returnFocus */
function closeMenu(returnFocus) {
  if (menu.hidden) return;
  menu.hidden = true;
  menuButton.setAttribute('aria-expanded', 'false');
  if (returnFocus) menuButton.focus();
}

/** Paints the menu's items and the labels for the conversation shown. */
export function renderConversationMenu() {
  if (!items) return;
  const conversation = state.current;
  items.pin.textContent = conversation?.pinned ? 'Unpin' : 'Pin';
  items.archive.textContent = conversation?.archived ? 'Unarchive' : 'Archive';
  const labels = $('conversation-labels');
  const parts = [];
  if (conversation?.id) {
    if (conversation.pinned) parts.push(el('span', 'label', 'Pinned'));
    if (conversation.archived) parts.push(el('span', 'label', 'Archived'));
    for (const tag of conversation.tags ?? []) {
      const button = el('button', 'label tag', `#${tag}`);
      button.type = 'button';
      button.setAttribute('aria-label', `Show the conversations tagged ${tag}`);
      button.addEventListener('click', () => filterByTag(tag));
      parts.push(button);
    }
  }
  labels.replaceChildren(...parts);
  labels.hidden = parts.length === 0;
}

/**
 * PATCH /api/conversations/:id, then the conversation and the list shown as it now is.
 * @param {OpenConversation} conversation
 * @param {Schemas['UpdateConversationDto']} change
 * @returns {Promise<boolean>} false when the server refused (the error is shown)
 */
async function update(conversation, change) {
  try {
    /** @type {Schemas['ConversationSummaryDto']} */
    const updated = await api.json('PATCH', `api/conversations/${conversation.id}`, change);
    Object.assign(conversation, {
      title: updated.title,
      pinned: updated.pinned,
      archived: updated.archived,
      tags: updated.tags,
    });
  } catch (error) {
    showError(error);
    return false;
  }
  if (state.current === conversation) changed('conversation');
  void refreshList();
  return true;
}

async function togglePin() {
  const conversation = state.current;
  if (!conversation?.id) return;
  if (await update(conversation, { pinned: !conversation.pinned }))
    announceChange(conversation.pinned ? 'Pinned.' : 'Unpinned.');
}

async function toggleArchive() {
  const conversation = state.current;
  if (!conversation?.id) return;
  if (await update(conversation, { archived: !conversation.archived })) {
    announceChange(
      conversation.archived ? 'Archived: it is in the Archived view now.' : 'Unarchived: it is back in the list.',
    );
  }
}

/** @param {string} text */
function announceChange(text) {
  $('announcer').textContent = text;
}

/** @param {'json' | 'markdown'} format */
async function exportAs(format) {
  const conversation = state.current;
  if (!conversation?.id) return;
  try {
    const fallback = `${conversation.title || 'conversation'}.${format === 'json' ? 'json' : 'md'}`;
    const { blob, filename } = await api.download(
      `api/conversations/${conversation.id}/export?format=${format}`,
      fallback,
    );
    const url = URL.createObjectURL(blob);
    const link = el('a');
    link.href = url;
    link.download = filename;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60_000); // the download has its data by then
    announceChange(`Exported as ${filename}.`);
  } catch (error) {
    showError(error);
  }
}

// --- The tags dialog --------------------------------------------------------------------------

/** Opens the tags dialog for the conversation shown: add and remove tags, each saved at once. */
async function editTags() {
  const conversation = state.current;
  if (!conversation?.id) return;
  const dialog = $('tags-dialog', HTMLDialogElement);
  $('tags-error').textContent = '';
  $('tag-input', HTMLInputElement).value = '';
  renderTagChips(conversation);
  dialog.showModal();
  $('tag-input').focus();
}

/** @param {OpenConversation} conversation */
function renderTagChips(conversation) {
  const tags = conversation.tags ?? [];
  $('tag-chips').replaceChildren(
    ...tags.map((tag) => {
      const chip = el('li', 'tag-chip');
      const remove = el('button', 'tool-button', '×');
      remove.type = 'button';
      remove.setAttribute('aria-label', `Remove the tag ${tag}`);
      remove.addEventListener(
        'click',
        () =>
          void saveTags(
            conversation,
            tags.filter((t) => t !== tag),
            `Tag ${tag} removed.`,
          ),
      );
      chip.append(el('span', '', `#${tag}`), remove);
      return chip;
    }),
  );
  $('tags-empty').hidden = tags.length > 0;
}

/**
 * @param {OpenConversation} conversation
 * @param {string[]} tags
 * @param {string} said
 */
async function saveTags(conversation, tags, said) {
  const error = $('tags-error');
  error.textContent = '';
  try {
    /** @type {Schemas['ConversationSummaryDto']} */
    const updated = await api.json('PATCH', `api/conversations/${conversation.id}`, { tags });
    conversation.tags = updated.tags;
  } catch (failure) {
    error.textContent =
      failure instanceof ApiError ? failure.message : failure instanceof Error ? failure.message : String(failure);
    return false;
  }
  renderTagChips(conversation);
  $('tags-status').textContent = said;
  if (state.current === conversation) renderConversationMenu();
  void refreshList();
  return true;
}

function wireTagsDialog() {
  $('tags-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const conversation = state.current;
    const input = $('tag-input', HTMLInputElement);
    const tag = input.value.trim().replace(/^#/, '');
    if (!conversation?.id || !tag) return;
    const tags = conversation.tags ?? [];
    if (tags.includes(tag.toLowerCase())) {
      $('tags-error').textContent = `It already has the tag ${tag.toLowerCase()}.`;
      return;
    }
    if (await saveTags(conversation, [...tags, tag], `Tag ${tag.toLowerCase()} added.`)) input.value = '';
    input.focus();
  });
  $('tags-close').addEventListener('click', () => $('tags-dialog', HTMLDialogElement).close());
}

// @ts-check
// Renaming and deleting the conversation shown, each after its dialog.
import { ApiError } from './api.js';
import { $ } from './dom.js';
import { showError } from './errors.js';
import { refreshList } from './list.js';
import { navigate } from './navigation.js';
import { api, changed, state } from './state.js';
import { detachStream } from './stream.js';

/** @typedef {import('./state.js').Schemas} Schemas */

/**
 * Resolves when the dialog closes.
 * @param {HTMLDialogElement} dialog
 * @returns {Promise<unknown>}
 */
const closed = (dialog) => new Promise((resolve) => dialog.addEventListener('close', resolve, { once: true }));

/** Cancel of the rename dialog: closes it without validating the title. */
export function wireRename() {
  $('rename-cancel').addEventListener('click', () => $('rename-dialog', HTMLDialogElement).close('cancel'));
}

export async function rename() {
  const conversation = state.current;
  if (!conversation?.id) return;
  const dialog = $('rename-dialog', HTMLDialogElement);
  const input = $('rename-input', HTMLInputElement);
  input.value = conversation.title;
  dialog.returnValue = '';
  dialog.showModal();
  input.select();
  await closed(dialog);
  const title = input.value.trim();
  if (dialog.returnValue !== 'ok' || !title || title === conversation.title) return;
  try {
    /** @type {Schemas['ConversationSummaryDto'] | null} */
    const updated = await api.json('PATCH', `api/conversations/${conversation.id}`, { title });
    conversation.title = updated?.title ?? title;
  } catch (error) {
    if (
      error instanceof ApiError &&
      (error.status === 405 || (error.status === 404 && /^Cannot PATCH/.test(error.message)))
    ) {
      showError(new Error('This server cannot rename conversations yet (PATCH /api/conversations/:id is missing).'));
    } else {
      showError(error);
    }
    return;
  }
  if (state.current === conversation) changed('conversation');
  await refreshList();
}

export async function remove() {
  const conversation = state.current;
  if (!conversation?.id) return;
  $('confirm-text').textContent =
    `“${conversation.title}” and all its messages will be deleted. This cannot be undone.`;
  const dialog = $('confirm-dialog', HTMLDialogElement);
  dialog.returnValue = '';
  dialog.showModal();
  await closed(dialog);
  if (dialog.returnValue !== 'ok') return;
  if (state.busy?.conversationId === conversation.id) detachStream();
  try {
    await api.json('DELETE', `api/conversations/${conversation.id}`);
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 404)) return showError(error); // 404: already gone
  }
  state.list.items = state.list.items.filter((c) => c.id !== conversation.id);
  changed('list');
  navigate('#/');
  await refreshList();
}

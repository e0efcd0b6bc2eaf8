// @ts-check
// The open conversation's share links (docs/sharing.md): make a read-only link to it as it is
// now, copy it, list its links and revoke them. The dialog is built here, on first use.
import { ApiError } from './api.js';
import { $, el } from './dom.js';
import { writeClipboard } from './tool-button.js';
import { openModal, restoreFocusOnClose } from './modal.js';
import { api, state } from './state.js';

/** @typedef {import('./state.js').Schemas} Schemas */

const DIALOG = 'share-dialog';

/** Opens the share dialog for the conversation shown. */
export async function openShareDialog() {
  const conversation = state.current;
  if (!conversation?.id) return;
  const dialog = document.getElementById(DIALOG) ?? buildDialog();
  dialog.dataset.conversationId = conversation.id;
  $('share-error').textContent = '';
  $('share-link-box').hidden = true;
  openModal(DIALOG, $('share-create'));
  await renderLinks(conversation.id);
}

function buildDialog() {
  const dialog = el('dialog', 'dialog wide');
  dialog.id = DIALOG;
  dialog.setAttribute('aria-labelledby', 'share-title');
  const title = el('h2', '', 'Share');
  title.id = 'share-title';
  const help = el(
    'p',
    'dialog-note',
    'A link shows this conversation as it is now, read-only, to anyone who has it, without a key. Later messages are not shown. Revoke it to end it.',
  );
  const create = el('button', 'button primary', 'Create a link');
  create.type = 'button';
  create.id = 'share-create';
  create.addEventListener('click', () => void createLink());

  const linkBox = el('div');
  linkBox.id = 'share-link-box';
  linkBox.hidden = true;
  const label = el('label', '', 'New link');
  label.htmlFor = 'share-link';
  const row = el('div', 'inline-field');
  const input = el('input');
  input.id = 'share-link';
  input.readOnly = true;
  const copy = el('button', 'button', 'Copy');
  copy.type = 'button';
  copy.id = 'share-copy';
  copy.addEventListener('click', async () => {
    const ok = await writeClipboard(input.value);
    $('share-status').textContent = ok
      ? 'Link copied to the clipboard.'
      : 'The clipboard refused the link: select it and copy it yourself.';
  });
  row.append(input, copy);
  linkBox.append(label, row, el('p', 'dialog-note', 'Copy it now: it cannot be shown again.'));

  const listTitle = el('h3', '', 'Links of this conversation');
  const list = el('ul', 'share-list');
  list.id = 'share-list';
  list.setAttribute('aria-label', 'Links of this conversation');
  const empty = el('p', 'dialog-note', 'No links yet.');
  empty.id = 'share-empty';
  const error = el('p', 'dialog-error');
  error.id = 'share-error';
  error.setAttribute('role', 'alert');
  const status = el('p', 'visually-hidden');
  status.id = 'share-status';
  status.setAttribute('role', 'status');
  const done = el('button', 'button subtle', 'Done');
  done.type = 'button';
  done.addEventListener('click', () => dialog.close());
  const buttons = el('div', 'dialog-buttons');
  buttons.append(done);
  dialog.append(title, help, create, linkBox, listTitle, list, empty, error, status, buttons);
  document.body.append(dialog);
  restoreFocusOnClose(DIALOG);
  return dialog;
}

const conversationOfDialog = () => $(DIALOG).dataset.conversationId ?? '';

async function createLink() {
  const id = conversationOfDialog();
  $('share-error').textContent = '';
  try {
    /** @type {Schemas['CreatedShareDto']} */
    const created = await api.json('POST', `api/conversations/${id}/shares`, {});
    const input = $('share-link', HTMLInputElement);
    input.value = new URL(created.url, location.href).href;
    $('share-link-box').hidden = false;
    input.select();
    $('share-status').textContent = 'Link created.';
  } catch (error) {
    $('share-error').textContent = error instanceof ApiError || error instanceof Error ? error.message : String(error);
  }
  await renderLinks(id);
}

/** @param {string} id */
async function renderLinks(id) {
  /** @type {Schemas['ShareListDto']} */
  let shares;
  try {
    shares = await api.json('GET', `api/conversations/${id}/shares`);
  } catch (error) {
    $('share-error').textContent = error instanceof Error ? error.message : String(error);
    return;
  }
  if (conversationOfDialog() !== id) return; // another conversation was opened meanwhile
  const now = Date.now();
  $('share-list').replaceChildren(
    ...shares.items.map((share) => {
      const made = new Date(share.createdAt).toLocaleString();
      const expired = share.expiresAt !== null && new Date(share.expiresAt).getTime() <= now;
      const item = el('li', 'share-item');
      const what = `Made ${made} · ${share.messageCount} message${share.messageCount === 1 ? '' : 's'}${share.expiresAt ? ` · ${expired ? 'expired' : `expires ${new Date(share.expiresAt).toLocaleString()}`}` : ''}`;
      const revoke = el('button', 'button small danger-outline', 'Revoke');
      revoke.type = 'button';
      revoke.setAttribute('aria-label', `Revoke the link made ${made}`);
      revoke.addEventListener('click', () => void revokeLink(id, share.id));
      item.append(el('span', '', what), revoke);
      return item;
    }),
  );
  $('share-empty').hidden = shares.items.length > 0;
}

/** @param {string} conversationId @param {string} shareId */
async function revokeLink(conversationId, shareId) {
  try {
    await api.json('DELETE', `api/shares/${shareId}`);
    $('share-status').textContent = 'Link revoked: it no longer opens.';
  } catch (error) {
    $('share-error').textContent = error instanceof Error ? error.message : String(error);
  }
  await renderLinks(conversationId);
}

// @ts-check
// The conversation as a tree (docs/api.md, "Branches"): the Edit button of the user's messages
// with its inline editor (POST .../messages/:id/edit/stream, streamed like a send), the ‹ n/m ›
// switch of a message with siblings (POST .../messages/:id/select), and reading the active path
// again once a turn has moved it.
import { $, el } from './dom.js';
import { hideError, showError } from './errors.js';
import { refreshList } from './list.js';
import { views } from './message-elements.js';
import { api, changed, flush, state, toViewMessage } from './state.js';
import { streamReply } from './stream.js';
import { toolButton } from './tool-button.js';

/** @typedef {import('./state.js').Schemas} Schemas */
/** @typedef {import('./state.js').ViewMessage} ViewMessage */
/** @typedef {import('./state.js').OpenConversation} OpenConversation */

/**
 * Reads the active path of the conversation shown again (its newest page) and shows it: the
 * ids and ‹ n/m › of the messages a turn or a switch has changed.
 * @param {OpenConversation} conversation
 */
export async function reloadPath(conversation) {
  if (!conversation.id) return;
  /** @type {Schemas['ConversationDetailDto']} */
  const detail = await api.json(
    'GET',
    `api/conversations/${conversation.id}?${new URLSearchParams({ thread: conversation.thread ?? 'main' })}`,
  );
  if (state.current !== conversation || state.busy) return; // the user went elsewhere, or a reply started meanwhile
  conversation.messages = detail.messages.map(toViewMessage);
  conversation.nextBefore = detail.nextBefore ?? null;
  changed('conversation');
}

/**
 * ‹ n/m › for a message with siblings (null without): previous and next select the sibling's
 * branch. Disabled while a reply streams (syncBranchControls).
 * @param {ViewMessage} message
 * @returns {HTMLElement | null}
 */
export function branchSwitch(message) {
  const ids = message.siblingIds ?? [];
  const index = message.siblingIndex ?? 0;
  if (!message.id || (message.siblingCount ?? 0) < 2 || ids.length < 2) return null;
  const nav = el('span', 'branch-switch');
  nav.setAttribute('role', 'group');
  nav.setAttribute('aria-label', `Version ${index + 1} of ${ids.length}`);
  const previous = toolButton('previous', 'Previous version');
  const next = toolButton('next', 'Next version');
  previous.dataset.edge = String(index === 0);
  next.dataset.edge = String(index === ids.length - 1);
  previous.addEventListener('click', () => void selectSibling(message, ids[index - 1], 'previous'));
  next.addEventListener('click', () => void selectSibling(message, ids[index + 1], 'next'));
  const count = el('span', 'branch-count', `${index + 1} / ${ids.length}`);
  count.setAttribute('aria-hidden', 'true'); // the group's name says it
  nav.append(previous, count, next);
  syncButtons(nav);
  return nav;
}

/**
 * The Edit button of a stored user message.
 * @param {ViewMessage} message
 * @returns {HTMLButtonElement | null}
 */
export function editButton(message) {
  if (message.role !== 'user' || !message.id || !state.current?.id) return null;
  const button = toolButton('edit', 'Edit your message');
  button.classList.add('edit-button');
  button.addEventListener('click', () => openEditor(message, message.content));
  syncButtons(button);
  return button;
}

/** Enables or disables the branch controls as the reply being streamed says (none: enabled). */
export function syncBranchControls() {
  syncButtons($('messages'));
}

/** @param {HTMLElement} root */
function syncButtons(root) {
  const buttons =
    root instanceof HTMLButtonElement ? [root] : root.querySelectorAll('.branch-switch button, .edit-button');
  for (const button of /** @type {Iterable<HTMLButtonElement>} */ (buttons))
    button.disabled = Boolean(state.busy) || button.dataset.edge === 'true';
}

/**
 * @param {ViewMessage} message
 * @param {string | undefined} siblingId
 * @param {'previous' | 'next'} which the button pressed: the focus stays on it
 */
async function selectSibling(message, siblingId, which) {
  const conversation = state.current;
  if (!conversation?.id || !siblingId || state.busy) return;
  hideError();
  const index = conversation.messages.indexOf(message);
  try {
    await api.json('POST', `api/conversations/${conversation.id}/messages/${siblingId}/select`);
    await reloadPath(conversation);
  } catch (error) {
    showError(error);
    return;
  }
  if (state.current !== conversation) return;
  flush(); // the focus goes to the switch of the path shown now
  const shown = conversation.messages.find((m) => m.id === siblingId) ?? conversation.messages[index];
  const nav = shown && views.get(shown)?.footer.querySelector('.branch-switch');
  if (!nav) return;
  $('announcer').textContent = `${nav.getAttribute('aria-label')} shown.`;
  const buttons = nav.querySelectorAll('button');
  const target = buttons[which === 'previous' ? 0 : 1];
  (target.disabled ? buttons[which === 'previous' ? 1 : 0] : target).focus();
}

/**
 * Turns a user message into an editor: Save (or Enter) asks it again in the new words, Cancel
 * (or Escape) puts it back.
 * @param {ViewMessage} message
 * @param {string} text the editor's text to start with
 */
function openEditor(message, text) {
  const view = views.get(message);
  if (!view || state.busy || view.article.querySelector('.message-editor')) return;
  const form = el('form', 'message-editor');
  const area = el('textarea', 'message-edit-input');
  area.value = text;
  area.rows = Math.min(10, Math.max(2, text.split('\n').length));
  area.setAttribute('aria-label', 'Edit your message');
  const save = el('button', 'button primary', 'Save');
  save.type = 'submit';
  const cancel = el('button', 'button subtle', 'Cancel');
  cancel.type = 'button';
  const buttons = el('div', 'message-editor-buttons');
  buttons.append(cancel, save);
  form.append(area, buttons);
  const close = () => {
    form.remove();
    view.body.hidden = false;
    view.footer.hidden = false;
    /** @type {HTMLButtonElement | null} */ (view.footer.querySelector('button.edit-button'))?.focus();
  };
  cancel.addEventListener('click', close);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (!area.value.trim() || state.busy) return;
    void saveEdit(message, area.value);
  });
  area.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation(); // not the page's Escape (stop a reply, close the drawer)
      close();
    } else if (event.key === 'Enter' && !event.shiftKey && !event.isComposing && event.keyCode !== 229) {
      event.preventDefault();
      form.requestSubmit();
    }
  });
  view.body.hidden = true;
  view.footer.hidden = true;
  view.body.after(form);
  area.focus();
  area.setSelectionRange(area.value.length, area.value.length);
}

/**
 * Asks the edited question: the path below it is replaced by the new question and its reply,
 * streamed as a send is; then the new path is read (its ids and ‹ n/m ›).
 * @param {ViewMessage} message
 * @param {string} text
 */
async function saveEdit(message, text) {
  const conversation = state.current;
  if (!conversation?.id || !message.id || state.busy) return;
  hideError();
  const index = conversation.messages.indexOf(message);
  if (index < 0) return;
  const before = conversation.messages.slice(index);
  /** @type {ViewMessage} */
  const question = { id: null, role: 'user', content: text, status: 'complete', error: null };
  /** @type {ViewMessage} */
  const reply = { id: null, role: 'assistant', content: '', status: 'streaming', error: null };
  conversation.messages.splice(index, before.length, question, reply);
  changed('conversation');
  const started = await streamReply(
    conversation,
    reply,
    'POST',
    `api/conversations/${conversation.id}/messages/${message.id}/edit/stream`,
    { message: text },
    (turn) => {
      question.id = turn.userMessageId ?? null;
    },
  );
  if (!started) {
    // Refused before anything was stored: the path is as it was, the new words still in the editor.
    conversation.messages.splice(conversation.messages.indexOf(question), 2, ...before);
    if (state.current === conversation) {
      changed('conversation');
      flush(); // the editor opens in the message shown again
      openEditor(message, text);
    }
    return;
  }
  void refreshList();
  try {
    await reloadPath(conversation);
  } catch (error) {
    if (state.current === conversation) showError(error);
  }
}

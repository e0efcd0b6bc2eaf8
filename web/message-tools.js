// @ts-check
// What each message carries besides its text: its time and (replies) model, a badge saying why
// a reply is not complete, copy buttons for the message and each code block, and "Continue in a
// new conversation" (POST /api/conversations/:id/fork); and, from branches.js, Edit on the user's
// messages and ‹ n/m › on messages with siblings.
import { branchSwitch, editButton } from './branches.js';
import { $, el } from './dom.js';
import { showError } from './errors.js';
import { refreshList } from './list.js';
import { codeLanguage } from './render.js';
import { api, state } from './state.js';
import { icon, toolButton, writeClipboard } from './tool-button.js';

/** @typedef {import('./state.js').Schemas} Schemas */
/** @typedef {import('./state.js').ViewMessage} ViewMessage */

/**
 * A copy button: writes `text()` to the clipboard, then says "Copied" for a moment (or that it
 * could not: the clipboard needs a secure context and the page's permission).
 * @param {string} label
 * @param {() => string} text
 */
function copyButton(label, text) {
  const button = toolButton('copy', label);
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  button.addEventListener('click', async () => {
    clearTimeout(timer);
    const ok = await writeClipboard(text());
    const said = ok ? 'Copied' : 'Copy failed';
    button.classList.toggle('copied', ok);
    button.replaceChildren(icon(ok ? 'check' : 'copy'), el('span', 'tool-text', said));
    button.setAttribute('aria-label', said);
    $('announcer').textContent = ok ? 'Copied to the clipboard.' : 'The clipboard refused the text.';
    timer = setTimeout(() => {
      button.classList.remove('copied');
      button.replaceChildren(icon('copy'), el('span', 'tool-text'));
      button.setAttribute('aria-label', label);
    }, 2000);
  });
  return button;
}

/**
 * Puts each code block of a rendered reply in a frame with its language and a copy button.
 * @param {HTMLElement} body the message's rendered Markdown
 */
export function decorateCodeBlocks(body) {
  for (const pre of body.querySelectorAll(':scope > pre, :scope li > pre, :scope blockquote > pre')) {
    const code = pre.querySelector('code');
    const lang = codeLanguage(code);
    const frame = el('div', 'code-block');
    const head = el('div', 'code-head');
    head.append(
      el('span', 'code-lang', lang),
      copyButton('Copy code', () => (code ?? pre).textContent?.replace(/\n$/, '') ?? ''),
    );
    pre.replaceWith(frame);
    frame.append(head, pre);
  }
}

/**
 * The line under a message: time, model, and its buttons.
 * @param {ViewMessage} message
 * @returns {HTMLElement}
 */
export function messageFooter(message) {
  const footer = el('footer', 'message-footer');
  paintFooter(message, footer);
  return footer;
}

/**
 * @param {ViewMessage} message
 * @param {HTMLElement} footer
 */
export function paintFooter(message, footer) {
  if (message.status === 'streaming') {
    footer.replaceChildren();
    footer.hidden = true;
    return;
  }
  footer.hidden = false;
  message.createdAt ??= new Date().toISOString(); // sent or finished here: the time it was seen
  const meta = el('span', 'message-meta');
  const date = new Date(message.createdAt);
  const today = date.toDateString() === new Date().toDateString();
  const clock = date.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
  const time = el(
    'time',
    '',
    today
      ? clock
      : `${date.toLocaleDateString(undefined, { day: 'numeric', month: 'short', year: 'numeric' })}, ${clock}`,
  );
  time.dateTime = message.createdAt;
  time.title = date.toLocaleString();
  meta.append(time);
  if (message.role === 'assistant' && message.model) meta.append(' · ', el('span', 'message-model', message.model));
  const tools = el('span', 'message-tools');
  const edit = editButton(message);
  if (edit) tools.append(edit);
  tools.append(copyButton(message.role === 'user' ? 'Copy your message' : 'Copy the reply', () => message.content));
  if (message.id && state.current?.id && message.status === 'complete') tools.append(pinButton(message, footer));
  if (message.id && state.current?.id) {
    const fork = toolButton('fork', 'Continue in a new conversation');
    fork.addEventListener('click', () => void forkFrom(message));
    tools.append(fork);
  }
  const versions = branchSwitch(message);
  footer.replaceChildren(...(versions ? [versions] : []), meta, tools);
}

/**
 * Pin or unpin the message (PATCH /api/conversations/:id/messages/:messageId): a pinned message
 * reaches the model on every turn of its branch; the server refuses one the budget cannot hold.
 * @param {ViewMessage} message
 * @param {HTMLElement} footer
 */
function pinButton(message, footer) {
  const pinned = Boolean(message.pinned);
  const button = toolButton('pin', pinned ? 'Unpin this message' : 'Pin this message (always sent to the model)');
  button.setAttribute('aria-pressed', String(pinned));
  button.classList.toggle('pinned', pinned);
  button.addEventListener('click', async () => {
    const conversationId = state.current?.id;
    if (!conversationId || !message.id) return;
    try {
      /** @type {Schemas['MessageDto']} */
      const saved = await api.json('PATCH', `api/conversations/${conversationId}/messages/${message.id}`, {
        pinned: !pinned,
      });
      message.pinned = saved.pinned;
      $('announcer').textContent = saved.pinned ? 'Pinned: sent to the model on every turn.' : 'Unpinned.';
      paintFooter(message, footer);
    } catch (error) {
      showError(error);
    }
  });
  return button;
}

/**
 * The badge and sentence for a reply that is not complete; null for one that is. The badge is
 * for the eye (screen readers get the sentence, which says the same and why).
 * @param {ViewMessage} message
 * @returns {{ badge: string, text: string } | null}
 */
export function statusNote(message) {
  /** @param {string} fallback */
  const reason = (fallback) => (message.error?.message ?? fallback).replace(/\.?$/, '.');
  if (message.status === 'cancelled') return { badge: 'Stopped', text: 'Stopped on request.' };
  if (message.status === 'truncated') return { badge: 'Cut', text: `Cut short: ${reason('a limit was reached')}` };
  if (message.status === 'failed') return { badge: 'Failed', text: `The reply failed: ${reason('unknown error')}` };
  return null;
}

/**
 * A new conversation with the messages up to this one (of every thread), opened.
 * @param {ViewMessage} message
 */
async function forkFrom(message) {
  const conversation = state.current;
  if (!conversation?.id || !message.id) return; // a reply being written goes on without this page
  try {
    /** @type {Schemas['ConversationDetailDto']} */
    const fork = await api.json('POST', `api/conversations/${conversation.id}/fork`, { fromMessageId: message.id });
    $('announcer').textContent = `Continued in a new conversation: ${fork.title}.`;
    location.hash = `#/c/${fork.id}`; // a new address: the page opens it (hashchange)
    void refreshList();
  } catch (error) {
    showError(error);
  }
}

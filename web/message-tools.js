// @ts-check
// What each message carries besides its text: its time and (replies) model, a badge saying why
// a reply is not complete, copy buttons for the message and each code block, and "Continue in a
// new conversation" (POST /api/conversations/:id/fork); and, from branches.js, Edit on the user's
// messages and ‹ n/m › on messages with siblings.
import { branchSwitch, editButton } from './branches.js';
import { $, el } from './dom.js';
import { showError } from './errors.js';
import { refreshList } from './list.js';
import { navigate } from './navigation.js';
import { api, state } from './state.js';

/** @typedef {import('./state.js').Schemas} Schemas */
/** @typedef {import('./state.js').ViewMessage} ViewMessage */

const ICONS = {
  copy: 'M8 3h11v13h-2V5H8zM4 7h11v14H4zm2 2v10h7V9z',
  check: 'M9.5 16.2 5.3 12l-1.4 1.4 5.6 5.6L21 7.5l-1.4-1.4z',
  edit: 'M3 17.25V21h3.75L17.8 9.95l-3.75-3.75zM20.7 7.05a1 1 0 0 0 0-1.4l-2.35-2.35a1 1 0 0 0-1.4 0L15.1 5.15l3.75 3.75z',
  previous: 'M15.4 7.4 14 6l-6 6 6 6 1.4-1.4-4.6-4.6z',
  next: 'M8.6 16.6 10 18l6-6-6-6-1.4 1.4 4.6 4.6z',
  pin: 'M16 3v2h-1v6l2 3v2h-4v5l-1 1-1-1v-5H7v-2l2-3V5H8V3z',
  fork: 'M7 3a3 3 0 0 1 1 5.8v1.7a2 2 0 0 0 2 2h4a4 4 0 0 1 4 4v.7a3 3 0 1 1-2 0v-.7a2 2 0 0 0-2-2h-4a4 4 0 0 1-2-.5v3.2a3 3 0 1 1-2 0V8.8A3 3 0 0 1 7 3',
};

/**
 * An inline SVG icon (aria-hidden: the button's label says what it does).
 * @param {keyof typeof ICONS} name
 */
function icon(name) {
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('width', '16');
  svg.setAttribute('height', '16');
  svg.setAttribute('aria-hidden', 'true');
  const path = document.createElementNS('http://www.w3.org/2000/svg', 'path');
  path.setAttribute('fill', 'currentColor');
  path.setAttribute('d', ICONS[name]);
  svg.append(path);
  return svg;
}

/**
 * A small button with an icon and a label (shown as a tooltip; read by screen readers).
 * @param {keyof typeof ICONS} name
 * @param {string} label
 */
export function toolButton(name, label) {
  const button = el('button', 'tool-button');
  button.type = 'button';
  button.title = label;
  button.setAttribute('aria-label', label);
  button.append(icon(name), el('span', 'tool-text'));
  return button;
}

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
 * The Clipboard API needs a secure context (https, or localhost): on a plain-http address of
 * the local network it is missing, and the older copy command still works there.
 * @param {string} text
 * @returns {Promise<boolean>}
 */
export async function writeClipboard(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = el('textarea', 'visually-hidden');
    area.value = text;
    area.setAttribute('aria-hidden', 'true');
    const focused = document.activeElement;
    document.body.append(area);
    area.select();
    let ok = false;
    try {
      ok = document.execCommand('copy');
    } catch {
      // not allowed either
    }
    area.remove();
    if (focused instanceof HTMLElement) focused.focus();
    return ok;
  }
}

/**
 * Puts each code block of a rendered reply in a frame with its language and a copy button.
 * @param {HTMLElement} body the message's rendered Markdown
 */
export function decorateCodeBlocks(body) {
  for (const pre of body.querySelectorAll(':scope > pre, :scope li > pre, :scope blockquote > pre')) {
    const code = pre.querySelector('code');
    const lang = /(?:^|\s)language-(\S+)/.exec(code?.className ?? '')?.[1] ?? '';
    const frame = el('div', 'code-block');
    const head = el('div', 'code-head');
    head.append(el('span', 'code-lang', lang), copyButton('Copy code', () => (code ?? pre).textContent?.replace(/\n$/, '') ?? ''));
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
  const time = el('time', '', today ? clock : `${date.toLocaleDateString(undefined, { day: 'numeric', month: 'short', year: 'numeric' })}, ${clock}`);
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
      const saved = await api.json('PATCH', `api/conversations/${conversationId}/messages/${message.id}`, { pinned: !pinned });
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
    navigate(`#/c/${fork.id}`);
    void refreshList();
  } catch (error) {
    showError(error);
  }
}

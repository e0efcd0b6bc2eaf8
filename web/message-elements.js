// @ts-check
// The messages on screen: which elements show which message (message-view.js fills the map as it
// builds them), for the modules that act on a message shown; the end of the list; what screen
// readers are told of a finished reply.
import { $ } from './dom.js';

/** @typedef {import('./state.js').ViewMessage} ViewMessage */
/** @typedef {{ article: HTMLElement, extras: HTMLElement, body: HTMLElement, note: HTMLElement, footer: HTMLElement }} MessageElements */

/** @type {Map<ViewMessage, MessageElements>} message object -> its elements in the list */
export const views = new Map();

/**
 * Tells screen readers that a reply has finished, with its text (the list itself is not live).
 * @param {ViewMessage} reply
 */
export function announce(reply) {
  const text =
    reply.status === 'cancelled'
      ? 'Reply stopped.'
      : `Reply${reply.status === 'truncated' ? ' (cut short)' : ''}: ${views.get(reply)?.body.textContent ?? reply.content}`;
  $('announcer').textContent = text.length > 600 ? `${text.slice(0, 600)}…` : text;
}

/** @param {boolean} force scroll even when the reader has scrolled up */
export function scrollToEnd(force) {
  const box = $('messages');
  const nearEnd = box.scrollHeight - box.scrollTop - box.clientHeight < 120;
  if (force || nearEnd) box.scrollTop = box.scrollHeight;
}

// @ts-check
// Modal dialogs of the panels (agents, threads, state, context, account): opened with focus on
// their first control, closed by Escape or their buttons, and the focus given back to the
// control that opened them.
import { $ } from './dom.js';

/** @type {WeakMap<HTMLDialogElement, Element | null>} dialog -> the element focused before it opened */
const openers = new WeakMap();

/**
 * Opens the dialog with this id as a modal and focuses `focus` (default: its first control).
 * @param {string} id
 * @param {HTMLElement | null} [focus]
 * @returns {HTMLDialogElement}
 */
export function openModal(id, focus) {
  const dialog = $(id, HTMLDialogElement);
  if (!dialog.open) {
    openers.set(dialog, document.activeElement);
    dialog.showModal();
  }
  const target = focus ?? dialog.querySelector('input, textarea, select, button');
  if (target instanceof HTMLElement) target.focus();
  return dialog;
}

/**
 * @param {string} id
 * @param {{ restoreFocus?: boolean }} [options] restoreFocus false: the caller moves the focus itself
 */
export function closeModal(id, { restoreFocus = true } = {}) {
  const dialog = $(id, HTMLDialogElement);
  if (!restoreFocus) openers.delete(dialog);
  if (dialog.open) dialog.close();
}

/**
 * Gives the focus back to the opener whenever the dialog closes (Escape included).
 * @param {string} id
 */
export function restoreFocusOnClose(id) {
  const dialog = $(id, HTMLDialogElement);
  dialog.addEventListener('close', () => {
    const opener = openers.get(dialog);
    openers.delete(dialog);
    if (opener instanceof HTMLElement && opener.isConnected && !opener.closest('[hidden]')) opener.focus();
  });
}

/**
 * The messages of a 400 answer (joined with "; ") sorted by the field they start with.
 * @param {string} message
 * @param {string[]} fields
 * @returns {{ byField: Map<string, string[]>, rest: string[] }}
 */
export function splitFieldMessages(message, fields) {
  /** @type {Map<string, string[]>} */
  const byField = new Map();
  /** @type {string[]} */
  const rest = [];
  for (const part of message
    .split('; ')
    .map((p) => p.trim())
    .filter(Boolean)) {
    // "temperature must ...", "each value in tools ...", "property x should not exist"
    const field = fields.find((f) => part.startsWith(`${f} `) || part.startsWith(`each value in ${f} `));
    if (field) byField.set(field, [...(byField.get(field) ?? []), part]);
    else rest.push(part);
  }
  return { byField, rest };
}

/**
 * One of the API's messages about a field, worded with the field's label on screen instead of
 * its name in the API ("maxTokens must not be ..." -> "Max tokens per reply must not be ...").
 * @param {string} message
 * @param {string} field
 * @param {string} label
 */
export function labelFieldMessage(message, field, label) {
  if (message === `${field} should not be empty`) return `${label} is required`;
  if (message.startsWith(`${field} `)) return `${label}${message.slice(field.length)}`;
  if (message.startsWith(`each value in ${field} `))
    return `Each value in ${label}${message.slice(`each value in ${field}`.length)}`;
  return message;
}

// @ts-check
// The message box itself: its height as the text grows, the characters left near the server's
// limit, and the focus it gets when a conversation is shown.
import { $ } from './dom.js';
import { NARROW, state } from './state.js';

export function autosize() {
  const input = $('message', HTMLTextAreaElement);
  input.style.height = 'auto';
  input.style.height = `${Math.min(input.scrollHeight, 200)}px`;
  showCount(input);
}

/** Shown from this share of the server's limit on: a long paste is seen before it is refused. */
const COUNT_FROM = 0.9;

/**
 * The characters left, near the limit, and how many too many past it (the server would refuse
 * the message: it is not sent).
 * @param {HTMLTextAreaElement} input
 */
function showCount(input) {
  const max = state.maxMessageChars;
  const count = $('message-count');
  const length = input.value.length; // UTF-16 code units, as the server counts them
  const near = max !== null && length >= max * COUNT_FROM;
  const over = max !== null && length > max;
  count.hidden = !near;
  count.classList.toggle('over', over);
  if (over) input.setAttribute('aria-invalid', 'true');
  else input.removeAttribute('aria-invalid');
  if (!near || max === null) return;
  const number = (/** @type {number} */ n) => n.toLocaleString('en');
  count.textContent = over
    ? `${number(length - max)} characters too many: the limit is ${number(max)}.`
    : `${number(length)} of ${number(max)} characters.`;
}

/** Not on narrow screens, where the keyboard it opens would cover the conversation. */
export function focusComposer() {
  if (!NARROW.matches) $('message').focus();
}

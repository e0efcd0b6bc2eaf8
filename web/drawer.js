// @ts-check
// The drawer: on narrow screens the conversation list slides over the chat.
import { $ } from './dom.js';
import { NARROW } from './state.js';

export function openDrawer() {
  document.body.classList.add('drawer-open');
  $('open-drawer').setAttribute('aria-expanded', 'true');
  $('backdrop').hidden = false;
  syncDrawer();
  $('new-chat').focus();
}

/** @param {boolean} [returnFocus] give the focus back to the button that opened it */
export function closeDrawer(returnFocus = true) {
  if (!document.body.classList.contains('drawer-open')) return;
  document.body.classList.remove('drawer-open');
  $('open-drawer').setAttribute('aria-expanded', 'false');
  $('backdrop').hidden = true;
  syncDrawer();
  if (returnFocus && NARROW.matches) $('open-drawer').focus();
}

/** On a narrow screen a closed drawer is out of reach of the keyboard and screen readers, and an open one is modal. */
export function syncDrawer() {
  const open = document.body.classList.contains('drawer-open');
  $('sidebar').inert = NARROW.matches && !open;
  /** @type {HTMLElement} */ (document.querySelector('main')).inert = NARROW.matches && open;
}

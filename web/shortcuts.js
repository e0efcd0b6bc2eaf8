// @ts-check
// Keyboard shortcuts, and the dialog that lists them (`?`, or the link under the message box).
import { stop } from './composer.js';
import { $, el } from './dom.js';
import { closeDrawer, openDrawer } from './drawer.js';
import { navigate } from './navigation.js';
import { NARROW, state } from './state.js';

const MAC = /Mac|iPhone|iPad/.test(navigator.platform);
const MOD = MAC ? '⌘' : 'Ctrl';

/**
 * @typedef {object} Shortcut
 * @property {string[]} keys shown in the dialog
 * @property {string} does
 * @property {(event: KeyboardEvent) => boolean} matches
 * @property {() => void} run
 */

/** @param {KeyboardEvent} event */
const mod = (event) => (MAC ? event.metaKey : event.ctrlKey) && !event.altKey;

/** @type {Shortcut[]} */
const SHORTCUTS = [
  {
    keys: [MOD, 'Shift', 'O'],
    does: 'New chat',
    matches: (e) => mod(e) && e.shiftKey && e.key.toLowerCase() === 'o',
    run: () => {
      state.newAgentId = '';
      closeDrawer(false);
      navigate('#/');
    },
  },
  {
    keys: [MOD, 'K'],
    does: 'Search conversations',
    matches: (e) => mod(e) && !e.shiftKey && e.key.toLowerCase() === 'k',
    run: focusSearch,
  },
  {
    keys: ['Esc'],
    does: 'Stop the reply being written',
    matches: (e) => e.key === 'Escape' && !e.shiftKey && !e.ctrlKey && !e.metaKey && Boolean(state.busy),
    run: () => void stop(),
  },
  {
    keys: ['Shift', 'Esc'],
    does: 'Go to the message box',
    matches: (e) => e.key === 'Escape' && e.shiftKey,
    run: () => $('message').focus(),
  },
  {
    keys: ['?'],
    does: 'Show these shortcuts',
    matches: (e) => (e.key === '?' && !e.ctrlKey && !e.metaKey && !typing(e)) || (mod(e) && e.key === '/'),
    run: showShortcuts,
  },
];

/** @param {KeyboardEvent} event */
function typing(event) {
  const target = event.target;
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable ||
      target instanceof HTMLInputElement ||
      target instanceof HTMLTextAreaElement ||
      target instanceof HTMLSelectElement)
  );
}

function focusSearch() {
  const search = $('search', HTMLInputElement);
  if (search.closest('form')?.hidden) return; // the server has no search
  if (NARROW.matches) openDrawer();
  search.focus();
  search.select();
}

function showShortcuts() {
  const list = $('shortcut-list');
  list.replaceChildren(
    ...SHORTCUTS.flatMap(({ keys, does }) => {
      const term = el('dt');
      keys.forEach((key, i) => {
        if (i) term.append(' + ');
        term.append(el('kbd', '', key));
      });
      return [term, el('dd', '', does)];
    }),
  );
  const dialog = $('shortcuts-dialog', HTMLDialogElement);
  if (!dialog.open) dialog.showModal();
}

export function wireShortcuts() {
  document.addEventListener('keydown', (event) => {
    if (event.defaultPrevented || event.isComposing) return;
    // A dialog or the drawer has its own keys (Escape closes it).
    if (document.querySelector('dialog[open]') || document.body.classList.contains('drawer-open')) {
      if (event.key === 'Escape') return;
      if (document.querySelector('dialog[open]')) return;
    }
    const shortcut = SHORTCUTS.find((s) => s.matches(event));
    if (!shortcut) return;
    event.preventDefault();
    shortcut.run();
  });
  const help = el('button', 'link-button', 'Keyboard shortcuts');
  help.type = 'button';
  help.id = 'show-shortcuts';
  help.addEventListener('click', showShortcuts);
  $('composer-help').append(' ', help);
}

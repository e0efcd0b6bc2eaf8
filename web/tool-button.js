// @ts-check
// The small icon buttons under messages and in the conversation's tools, and the clipboard they
// copy to.
import { el } from './dom.js';

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
export function icon(name) {
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

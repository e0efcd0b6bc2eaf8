// @ts-check
// The page's theme: the system's (light or dark, as it changes), or light or dark whatever the
// system says; kept in localStorage. css/base.css writes each colour as light-dark(), so the theme is
// only the root's color-scheme (data-theme).
import { $ } from './dom.js';

const THEME_STORAGE = 'chat-memory.theme';
const THEMES = ['system', 'light', 'dark'];

/** @returns {string} */
function storedTheme() {
  try {
    const theme = localStorage.getItem(THEME_STORAGE) ?? 'system';
    return THEMES.includes(theme) ? theme : 'system';
  } catch {
    return 'system'; // storage refused (a private window's policy): the system's theme
  }
}

/** @param {string} theme */
function applyTheme(theme) {
  if (theme === 'system') delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = theme;
}

/** Applies the kept theme and wires its picker. */
export function wireTheme() {
  const select = $('theme', HTMLSelectElement);
  select.value = storedTheme();
  applyTheme(select.value);
  select.addEventListener('change', () => {
    applyTheme(select.value);
    try {
      if (select.value === 'system') localStorage.removeItem(THEME_STORAGE);
      else localStorage.setItem(THEME_STORAGE, select.value);
    } catch {
      // Not kept: it still holds for this visit.
    }
  });
}

// @ts-check
// Syntax highlighting of code blocks, by highlight.js (its ES build with the common languages,
// served from node_modules like marked). It returns HTML of <span class="hljs-…"> around the
// escaped code, which goes through DOMPurify with the rest of the reply; colours are in css/message.css
// (light and dark). A block without a language, or in one it does not know, stays plain:
// guessing would run every grammar on each repaint of a streaming reply.
import hljs from './vendor/highlight.min.js';

/** Longer blocks are shown plain: highlighting runs again on every frame while a reply streams. */
const MAX_HIGHLIGHT_CHARS = 100_000;

/**
 * The HTML of a code block's text, highlighted when its language is known; null otherwise.
 * @param {string} text
 * @param {string | undefined} lang the info string's first word (```js)
 * @returns {string | null}
 */
export function highlightCode(text, lang) {
  const name = (lang ?? '').trim().split(/\s/)[0].toLowerCase();
  if (!name || text.length > MAX_HIGHLIGHT_CHARS || !hljs.getLanguage(name)) return null;
  try {
    return hljs.highlight(text, { language: name, ignoreIllegals: true }).value;
  } catch {
    return null; // a grammar's bug must not lose the reply
  }
}

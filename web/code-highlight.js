// @ts-check
// Syntax highlighting of code blocks, by highlight.js (its ES build with the common languages,
// served from node_modules like marked, and loaded the first time a block names a language:
// late-renderers.js). It returns HTML of <span class="hljs-…"> around the
// escaped code, which goes through DOMPurify with the rest of the reply; colours are in css/message.css
// (light and dark). A block without a language, or in one it does not know, stays plain:
// guessing would run every grammar on each repaint of a streaming reply.
import { lateModule } from './late-renderers.js';

const highlightModule = lateModule(() => import('./vendor/highlight.min.js'));

/** Longer blocks are shown plain: highlighting runs again on every frame while a reply streams. */
const MAX_HIGHLIGHT_CHARS = 100_000;

/**
 * The HTML of a code block's text, highlighted when its language is known; null otherwise, and
 * until highlight.js has loaded (the block is highlighted in place then: render.js's drawLate).
 * @param {string} text
 * @param {string | undefined} lang the info string's first word (```js)
 * @returns {string | null}
 */
export function highlightCode(text, lang) {
  const name = (lang ?? '').trim().split(/\s/)[0].toLowerCase();
  if (!name || text.length > MAX_HIGHLIGHT_CHARS) return null;
  const hljs = highlightModule.get()?.default;
  if (!hljs?.getLanguage(name)) return null;
  try {
    return hljs.highlight(text, { language: name, ignoreIllegals: true }).value;
  } catch {
    return null; // a grammar's bug must not lose the reply
  }
}

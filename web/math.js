// @ts-check
// Math in replies: LaTeX between $...$ or \(...\) (inline) and $$...$$ or \[...\] (display),
// found by the Markdown renderer (never inside code) and drawn by KaTeX, served by the service
// and loaded the first time a reply holds math (late-renderers.js).
// A dollar sign opens math only when a non-space follows it, and closes it only after a
// non-space and before a non-digit, so prices ("$5 and $10") stay text.
import { lateModule } from './late-renderers.js';

const katexModule = lateModule(() => import('./vendor/katex/katex.mjs'));

/** @type {Record<string, string>} */
const ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/** @param {string} text */
const escapeHtml = (text) => String(text).replace(/[&<>"']/g, (c) => ESCAPES[c]);

// Each body stops at the next opening mark as well as at its closing one, so an unclosed mark
// repeated many times costs time linear in the text, not quadratic.
const DISPLAY = /^(?:\$\$((?:(?!\$\$)[\s\S])+?)\$\$|\\\[((?:(?!\\\[)[\s\S])+?)\\\])/;
const INLINE = /^(?:\\\(((?:(?!\\\()[\s\S])+?)\\\)|\$(?![\s$])((?:\\.|[^\\\n$])+?)(?<![\s\\])\$(?!\d))/;
const BLOCK = /^ {0,3}(?:\$\$((?:(?!\$\$)[\s\S])+?)\$\$|\\\[((?:(?!\\\[)[\s\S])+?)\\\]) *(?:\n|$)/;

/**
 * The marked extension: math becomes an element holding its source as text, drawn by `drawMath`
 * once the HTML is sanitised (KaTeX's own markup would not pass the sanitiser, nor its inline styles the page's policy).
 * @type {import('./vendor/marked.esm.js').MarkedExtension}
 */
export const mathExtension = {
  extensions: [
    {
      name: 'mathBlock',
      level: 'block',
      start: (src) => src.match(/\$\$|\\\[/)?.index,
      tokenizer(src) {
        const match = BLOCK.exec(src);
        if (match) return { type: 'mathBlock', raw: match[0], text: (match[1] ?? match[2]).trim() };
        return undefined;
      },
      renderer: (token) => `<div class="math-display">${escapeHtml(token.text)}</div>\n`,
    },
    {
      name: 'math',
      level: 'inline',
      start: (src) => src.match(/\$|\\[([]/)?.index,
      tokenizer(src) {
        const display = DISPLAY.exec(src);
        if (display) return { type: 'math', raw: display[0], text: (display[1] ?? display[2]).trim(), display: true };
        const inline = INLINE.exec(src);
        if (inline) return { type: 'math', raw: inline[0], text: (inline[1] ?? inline[2]).trim(), display: false };
        return undefined;
      },
      renderer: (token) =>
        `<span class="${token.display ? 'math-display' : 'math-inline'}">${escapeHtml(token.text)}</span>`,
    },
  ],
};

/**
 * Draws the math elements of sanitised HTML with KaTeX (HTML for the eye, MathML for screen
 * readers). KaTeX builds its nodes itself, styles set through the DOM, which the policy allows;
 * \href and the like stay off (its default `trust: false`); an error shows the source in red.
 * Until KaTeX has loaded, the math stays as its source (drawn later, in place: render.js's
 * drawLate); a node drawn is marked, so it is never drawn twice.
 * @template {ParentNode} T
 * @param {T} fragment
 * @returns {T}
 */
export function drawMath(fragment) {
  const nodes = fragment.querySelectorAll('.math-inline:not(.math-drawn), .math-display:not(.math-drawn)');
  const katex = nodes.length > 0 ? katexModule.get()?.default : undefined;
  if (!katex) return fragment;
  for (const node of nodes) {
    node.classList.add('math-drawn');
    const source = node.textContent ?? '';
    const display = node.classList.contains('math-display');
    try {
      katex.render(source, /** @type {HTMLElement} */ (node), {
        displayMode: display,
        throwOnError: false,
        maxSize: 20,
        maxExpand: 200,
      });
    } catch {
      node.textContent = display ? `$$${source}$$` : `$${source}$`;
    }
  }
  return fragment;
}

// @ts-check
// Replies as Markdown, made safe. Model output is untrusted: raw HTML in it is shown as text,
// pictures become links (an image URL can carry data out), and the HTML that the Markdown
// renderer makes goes through DOMPurify before it reaches the page. Both libraries are served
// by the service from its own node_modules (exact versions in package.json). Math is drawn by
// KaTeX after sanitising (math.js).
import { Marked } from './vendor/marked.esm.js';
import DOMPurify from './vendor/purify.es.mjs';
import { highlightCode } from './code-highlight.js';
import { drawMath, mathExtension } from './math.js';

/** @type {Record<string, string>} */
const ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/** @param {string} text */
const escapeHtml = (text) => String(text).replace(/[&<>"']/g, (c) => ESCAPES[c]);

const markdown = new Marked({
  gfm: true,
  breaks: true, // chat text: a single line break is a line break
  renderer: {
    html: ({ text, block }) =>
      block ? `<p>${escapeHtml(text.trimEnd()).replaceAll('\n', '<br>')}</p>` : escapeHtml(text),
    image: ({ href, text }) => `<a href="${escapeHtml(href)}">${escapeHtml(text || href)}</a>`,
    checkbox: ({ checked }) => (checked ? '\u2611 ' : '\u2610 '),
    code: ({ text, lang }) => {
      const code = text.replace(/\n$/, '');
      const name = (lang ?? '').trim().split(/\s/)[0];
      const highlighted = highlightCode(code, name);
      const classes = [highlighted === null ? '' : 'hljs', name ? `language-${escapeHtml(name)}` : '']
        .filter(Boolean)
        .join(' ');
      return `<pre><code${classes ? ` class="${classes}"` : ''}>${highlighted ?? escapeHtml(code)}\n</code></pre>\n`;
    },
  },
});
markdown.use(mathExtension);

/** @type {import('./vendor/purify.es.mjs').Config & { RETURN_DOM_FRAGMENT: true }} */
const PURIFY = {
  USE_PROFILES: { html: true }, // no SVG, no MathML
  FORBID_TAGS: [
    'style',
    'img',
    'picture',
    'source',
    'video',
    'audio',
    'track',
    'form',
    'input',
    'button',
    'select',
    'textarea',
  ],
  FORBID_ATTR: ['style', 'id', 'name', 'srcset'],
  ALLOW_DATA_ATTR: false,
  ALLOWED_URI_REGEXP: /^(?:https?:|mailto:)/i, // links to web pages and mail only: no javascript:, data:, relative
  RETURN_DOM_FRAGMENT: true,
};

// Links open in a new tab, without giving that tab a handle on this one or a referrer.
DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  if (node.nodeName === 'A' && node.hasAttribute('href')) {
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer nofollow');
  }
});

/**
 * Sanitised HTML, as a DocumentFragment ready to insert.
 * @param {string} html
 * @returns {DocumentFragment}
 */
export function sanitize(html) {
  return DOMPurify.sanitize(html, PURIFY);
}

/**
 * A reply's Markdown as a DocumentFragment of safe HTML.
 * @param {string | null | undefined} text
 */
export function renderMarkdown(text) {
  return drawMath(sanitize(markdown.parse(text ?? '', { async: false })));
}

/**
 * Draws in place what a renderer that loaded late (late-renderers.js) would have drawn: code
 * blocks not highlighted yet and math not drawn yet. In place, so that the message's buttons,
 * and the focus or a click on one, are kept.
 * @param {ParentNode} root
 */
export function drawLate(root) {
  for (const code of root.querySelectorAll('pre > code:not(.hljs)')) {
    const highlighted = highlightCode((code.textContent ?? '').replace(/\n$/, ''), codeLanguage(code));
    if (highlighted === null) continue;
    code.replaceChildren(sanitize(`${highlighted}\n`));
    code.classList.add('hljs');
  }
  drawMath(root);
}

/**
 * The language a rendered code block names (its `language-…` class), '' for none.
 * @param {Element | null} code
 */
export const codeLanguage = (code) => /(?:^|\s)language-(\S+)/.exec(code?.className ?? '')?.[1] ?? '';

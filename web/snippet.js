// @ts-check
// Search snippets as plain text with the matched words marked. The API marks a match as
// [word] inside an excerpt of the stored text, which is Markdown: the excerpt's Markdown markers
// (emphasis, code ticks, headings, quotes, list bullets, links, table pipes) are dropped, and only
// brackets around a word of the query count as marks, so a message's own brackets ("[1]", a
// task box, a link's text) stay text. Everything reaches the page as text nodes, never as HTML.
import { el } from './dom.js';

/** Stand-ins for an accepted mark while the Markdown is stripped: private-use characters. */
const OPEN = '\uE000';
const CLOSE = '\uE001';
const STAND_INS = /[\uE000\uE001\uF000-\uF07F]/g;
const BRACKETED = /\[([^[\]\n]{1,200})\]/g;
const WORD_SPLIT = /[^\p{L}\p{N}]+/u;

/**
 * The query's words, folded as the index folds them (case and accents).
 * @param {string} query
 * @returns {string[]}
 */
function queryWords(query) {
  return fold(query).split(WORD_SPLIT).filter(Boolean);
}

/** @param {string} text */
const fold = (text) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/**
 * Whether bracketed text is a match of the query: its first word shares its start with a word of
 * the query. Matches are stemmed (`painting` for `paints`) and prefixes (`paint*`), so the stem,
 * less a letter that stemming may change (`cry`, `cries`), is what both share.
 * @param {string} inner
 * @param {string[]} words
 */
function isMatch(inner, words) {
  const first = fold(inner).split(WORD_SPLIT).find(Boolean);
  if (!first) return false;
  return words.some((word) => {
    const need = Math.max(1, Math.min(word.length, first.length, 4) - 1);
    return first.slice(0, need) === word.slice(0, need);
  });
}

/** Markers at the start of a line: heading, quote, list bullet or number, task box. */
const LINE_START = /^(\s*)(?:#{1,6}\s+|(?:>\s?)+|(?:[-*+]|\d{1,9}[.)])\s+(?:\[[ xX]\]\s+)?)/;
/** Lines that are only Markdown: a code fence, a rule, a table's separator row. */
const MARKUP_LINE = /^\s*(?:(?:```|~~~)[\w+-]*|([-*_])(?:\s*\1){2,}|\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?)\s*$/;
const LINK = /!?\[([^[\]\n]*)\]\([^()\s]*(?:\([^()\s]*\)[^()\s]*)?\)/g;
const LINK_TAIL = /\]\([^()\s]*\)|\]\([^()\s]*$/g; // the end of a link whose start the excerpt cut off
const AUTOLINK = /<((?:https?|mailto):[^<>\s]+)>/g;
const ESCAPE = /\\([\\`*_{}()#+\-.!|~>[\]])/g;
/** An escaped character is kept aside as U+F000 + its code while the markers are stripped. */
const ESCAPED = /[\uF000-\uF07F]/g;
const EDGE = `\\s()\\[\\]{}"'.,;:!?…·${OPEN}${CLOSE}`;
const EMPHASIS_OPEN = new RegExp(`(^|[${EDGE}])(?:[*_]{1,3}|~~)(?=[^\\s*_~])`, 'gu');
const EMPHASIS_CLOSE = new RegExp(`([^\\s*_~])(?:[*_]{1,3}|~~)(?=$|[${EDGE}])`, 'gu');

/**
 * One line of an excerpt without its Markdown markers.
 * @param {string} line
 */
function plainLine(line) {
  if (MARKUP_LINE.test(line)) return '';
  let text = line.replace(LINE_START, '$1');
  if (/(?<!\|)\|(?!\|)/.test(text)) {
    text = text
      .replace(/^\s*\|/, '')
      .replace(/\|\s*$/, '')
      .replace(/\s*(?<!\|)\|(?!\|)\s*/g, ' · ');
  }
  return text;
}

/**
 * The snippet as pieces of plain text, each marked (a match) or not.
 * @param {string} snippet as the API answers it, matches in [brackets]
 * @param {string} query the words searched for
 * @returns {Array<{ text: string, mark: boolean }>}
 */
function snippetParts(snippet, query) {
  const words = queryWords(query);
  let text = snippet
    .replace(STAND_INS, '')
    .replace(ESCAPE, (_, c) => String.fromCharCode(0xf000 + c.charCodeAt(0)))
    .replace(BRACKETED, (whole, inner) => (isMatch(inner, words) ? `${OPEN}${inner}${CLOSE}` : whole));
  const lead = text.startsWith('…') ? '…' : '';
  text = text.slice(lead.length);
  text = text.replace(LINK, '$1').replace(LINK_TAIL, '').replace(AUTOLINK, '$1');
  text = text.split(/\r?\n/).map(plainLine).join(' ');
  text = text.replace(/`+/g, '').replace(EMPHASIS_OPEN, '$1').replace(EMPHASIS_CLOSE, '$1');
  text = text.replace(ESCAPED, (c) => String.fromCharCode(c.charCodeAt(0) - 0xf000));
  text = `${lead}${text.replace(/\s+/g, ' ').trim()}`;
  /** @type {Array<{ text: string, mark: boolean }>} */
  const parts = [];
  for (const [i, piece] of text.split(new RegExp(`${OPEN}([^${CLOSE}]*)${CLOSE}`)).entries()) {
    if (piece) parts.push({ text: piece, mark: i % 2 === 1 });
  }
  return parts;
}

/**
 * A snippet's element: text, with the matches in <mark>.
 * @param {string} snippet
 * @param {string} query
 */
export function snippetView(snippet, query) {
  const span = el('span', 'conversation-snippet');
  for (const part of snippetParts(snippet, query)) span.append(part.mark ? el('mark', '', part.text) : part.text);
  return span;
}

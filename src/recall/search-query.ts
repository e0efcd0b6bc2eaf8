import type { SearchQuery, SearchTerm } from '../conversations/message-search.repository.js';

/** At most this many terms are looked for (and excluded): each costs one pass over the index. */
export const MAX_TERMS = 16;
const MAX_EXCLUDED = 8;
/** Longer words are cut: no word of a language is longer, and the index stores them whole. */
const MAX_WORD_CHARS = 64;
/** A prefix shorter than this would match most of the index. */
const MIN_PREFIX_CHARS = 2;

/**
 * PostgreSQL's `english` stop words (the Snowball list), ignored for matching on both
 * databases: PostgreSQL drops them itself, SQLite's FTS5 indexes them, so the query leaves them out.
 */
export const STOP_WORDS = new Set(
  (
    'i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her hers herself ' +
    'it its itself they them their theirs themselves what which who whom this that these those am is are was were be ' +
    'been being have has had having do does did doing a an the and but if or because as until while of at by for with ' +
    'about against between into through during before after above below to from up down in out on off over under again ' +
    'further then once here there when where why how all any both each few more most other some such no nor not only ' +
    'own same so than too very s t can will just don should now'
  ).split(' '),
);

const WORD = /[\p{L}\p{N}_]+/gu;

/**
 * The user's text as search terms, never as query syntax: `"a phrase"`, `-word` (or `-"a phrase"`)
 * to exclude, `word*` for a prefix; every other character separates words. Words are lower-cased
 * and cut; stop words alone are dropped (a phrase keeps them). Linear in the text; unbalanced
 * quotes are taken as separators. A query of stop words only, or of exclusions only, has no term
 * and finds nothing.
 */
export function parseSearchQuery(text: string): SearchQuery {
  const terms: SearchTerm[] = [];
  const excluded: SearchTerm[] = [];
  const seen = new Set<string>();
  const add = (term: SearchTerm | null, exclude: boolean) => {
    if (!term) return;
    const key = `${term.kind}:${term.words.join(' ')}`;
    if (seen.has(key)) return;
    const list = exclude ? excluded : terms;
    if (list.length >= (exclude ? MAX_EXCLUDED : MAX_TERMS)) return;
    seen.add(key);
    list.push(term);
  };
  // Phrases first: a quote closes at the next quote; an odd one out is a separator.
  const pieces = splitQuoted(text);
  for (const piece of pieces) {
    if (piece.quoted) {
      add(phraseOf(words(piece.text), false), piece.excluded);
      continue;
    }
    for (const chunk of piece.text.split(/\s+/)) {
      if (!chunk) continue;
      const exclude = chunk.startsWith('-');
      const prefix = /[\p{L}\p{N}_]\*+$/u.test(chunk);
      add(phraseOf(words(chunk), prefix), exclude);
    }
  }
  return { terms, excluded };
}

function words(text: string): string[] {
  return (text.match(WORD) ?? []).map((w) => w.toLowerCase().slice(0, MAX_WORD_CHARS));
}

/** One word is a word (or a prefix); several (`e-mail`, `a:b`, a quoted phrase) a phrase. */
function phraseOf(list: string[], prefix: boolean): SearchTerm | null {
  const kept = list.slice(0, MAX_TERMS);
  if (kept.length === 0) return null;
  if (kept.length > 1) return { kind: 'phrase', words: kept };
  const [word] = kept;
  if (prefix && word.length >= MIN_PREFIX_CHARS) return { kind: 'prefix', words: [word] };
  return STOP_WORDS.has(word) ? null : { kind: 'word', words: [word] };
}

interface Piece {
  readonly text: string;
  readonly quoted: boolean;
  readonly excluded: boolean;
}

/** The text cut at balanced double quotes; a quote preceded by `-` excludes its phrase. */
function splitQuoted(text: string): Piece[] {
  const pieces: Piece[] = [];
  let at = 0;
  for (;;) {
    const open = text.indexOf('"', at);
    const close = open < 0 ? -1 : text.indexOf('"', open + 1);
    if (close < 0) {
      pieces.push({ text: text.slice(at).replaceAll('"', ' '), quoted: false, excluded: false });
      return pieces;
    }
    const excluded = text[open - 1] === '-' && (open - 1 === 0 || /\s/.test(text[open - 2]));
    pieces.push({ text: text.slice(at, excluded ? open - 1 : open), quoted: false, excluded: false });
    pieces.push({ text: text.slice(open + 1, close), quoted: true, excluded });
    at = close + 1;
  }
}

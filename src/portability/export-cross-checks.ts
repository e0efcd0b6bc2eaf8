import type { ConversationState } from '../conversations/conversation.entity.js';
import { InvalidInputError } from '../conversations/conversation.errors.js';
import { validState } from '../conversations/state.js';
import { MAX_TAG_CHARS } from '../conversations/tags.js';
import { isObject } from './archives/archive-values.js';
import type { ExportedConversation, ExportedMessage } from './export-document.js';
import type { Problems, ProblemsByPart } from './import-problems.js';

/*
 * What an import checks that depends on more than one value (the class-validator rules of
 * export-document.ts check each value alone): each adds what it finds to `problems`.
 */

/** The conversation's state as stored (`{}` when there is none); a value that is no state is a problem. */
export function checkState(problems: Problems, value: unknown, at: string): ConversationState {
  if (value === undefined) return {};
  try {
    return validState(value);
  } catch (error) {
    // Serializing a state nested thousands deep overflows the stack: it is no state either.
    if (error instanceof RangeError) problems.add(`${at}.state`, 'is nested too deeply');
    else if (error instanceof InvalidInputError) problems.add(`${at}.state`, error.message.replace(/^state /, ''));
    else throw error;
    return {};
  }
}

/** Tags as the service stores them: trimmed, not blank, at most MAX_TAG_CHARS. */
export function checkTags(problems: Problems, c: ExportedConversation, at: string): void {
  if (!Array.isArray(c.tags)) return;
  c.tags.forEach((tag: unknown, i) => {
    const path = `${at}.tags[${i}]`;
    if (typeof tag !== 'string') return problems.add(path, 'must be a string');
    if (!tag.trim()) return problems.add(path, 'must not be empty');
    if (tag.trim().length > MAX_TAG_CHARS)
      return problems.add(path, `is ${tag.trim().length} characters long; the limit is ${MAX_TAG_CHARS}`);
  });
}

/** Each message's own problems, then: seq strictly increasing, a user message complete, not blank, within MAX_MESSAGE_CHARS. */
export function checkMessages(
  problems: Problems,
  found: ProblemsByPart,
  c: ExportedConversation,
  at: string,
  maxMessageChars: number,
): void {
  if (!Array.isArray(c.messages)) return;
  let previousSeq = 0;
  c.messages.forEach((m: ExportedMessage, i) => {
    const path = `${at}.messages[${i}]`;
    const own = found.take(path);
    problems.addAll(own);
    if (!isObject(m)) return;
    const valid = (field: keyof ExportedMessage) => !own.some((p) => p.path === `${path}.${field}`);
    if (valid('seq')) {
      if (m.seq <= previousSeq)
        problems.add(
          `${path}.seq`,
          `must be greater than the seq before it (${previousSeq}): messages are listed in seq order`,
        );
      previousSeq = Math.max(previousSeq, m.seq);
    }
    if (valid('content') && m.role !== 'assistant' && m.content.length > maxMessageChars) {
      problems.add(
        `${path}.content`,
        `is ${m.content.length} characters long; the limit is ${maxMessageChars} (MAX_MESSAGE_CHARS)`,
      );
    } else if (valid('content') && m.role === 'user' && !m.content.trim()) {
      problems.add(`${path}.content`, 'must not be empty for a user message');
    }
    if (m.role === 'user' && valid('status') && m.status !== 'complete')
      problems.add(`${path}.status`, 'must be "complete" for a user message');
  });
}

/** Each item's own problems, then: no two items with the same `key` (checked once it is valid). */
export function checkUnique<K extends string>(
  problems: Problems,
  found: ProblemsByPart,
  items: ReadonlyArray<Record<K, string>> | undefined,
  at: string,
  key: K,
  twice: (value: string) => string,
): void {
  if (!Array.isArray(items)) return;
  const seen = new Set<string>();
  items.forEach((item, i) => {
    const path = `${at}[${i}]`;
    const own = found.take(path);
    problems.addAll(own);
    if (!isObject(item) || own.some((p) => p.path === `${path}.${key}`)) return;
    const value = item[key] as string;
    if (seen.has(value)) problems.add(`${path}.${key}`, twice(value));
    seen.add(value);
  });
}

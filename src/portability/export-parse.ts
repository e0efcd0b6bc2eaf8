import { plainToInstance } from 'class-transformer';
import { validateSync, type ValidatorOptions } from 'class-validator';
import {
  ACCOUNT_EXPORT_FORMAT,
  CONVERSATION_EXPORT_FORMAT,
  ConversationExport,
  EXPORT_VERSION,
  EXPORT_VERSIONS,
  type ExportVersion,
  type ExportedConversation,
  ExportedMessage,
} from './export-document.js';
import { isObject } from './archives/archive-values.js';
import { checkMessages, checkState, checkTags, checkUnique } from './export-cross-checks.js';
import { NOT_AN_OBJECT } from './export-fields.js';
import { checkTree } from './export-tree.js';
import { buildImport, type ConversationImport } from './imported-conversation.js';
import { Problems, ProblemsByPart, problemsOf, type ExportProblem } from './import-problems.js';

/**
 * Unknown keys are ignored, as informative ones (ids, an agent's settings) are: a file may come
 * from a newer version or another tool. class-transformer copies only described fields
 * (excludeExtraneousValues), so what it walks is bounded by the description, not by the input.
 */
const VALIDATION: ValidatorOptions = {
  whitelist: true,
  forbidNonWhitelisted: false,
  stopAtFirstError: true,
  validationError: { target: false },
};

/**
 * Checks a conversation export and turns it into what an import stores. A document of another
 * format or version is refused with that one problem; otherwise every problem found is
 * counted, and the first MAX_LISTED_PROBLEMS are listed with their JSON paths, part by part: the
 * conversation's fields, then each message, thread and summary with its own problems.
 */
export async function parseConversationExport(
  input: unknown,
  limits: { readonly maxMessageChars: number },
  now = new Date(),
): Promise<ConversationImport> {
  const problems = new Problems();
  if (!isObject(input)) {
    problems.add('$', input === undefined ? 'is missing (a JSON object)' : NOT_AN_OBJECT);
    throw problems.rejection();
  }
  if (input.format !== CONVERSATION_EXPORT_FORMAT) {
    problems.add(
      '$.format',
      input.format === ACCOUNT_EXPORT_FORMAT
        ? `is "${ACCOUNT_EXPORT_FORMAT}" (a whole account): import its conversations one at a time, each item of "conversations" is a conversation export`
        : `must be "${CONVERSATION_EXPORT_FORMAT}" (this is not a conversation export of this service)`,
    );
    throw problems.rejection();
  }
  if (!(EXPORT_VERSIONS as readonly unknown[]).includes(input.version)) {
    problems.add(
      '$.version',
      Number.isInteger(input.version) && (input.version as number) > EXPORT_VERSION
        ? `${String(input.version)} is newer than this server reads (${EXPORT_VERSION})`
        : `must be ${EXPORT_VERSIONS.join(' or ')}`,
    );
    throw problems.rejection();
  }
  const version = input.version as ExportVersion;

  // The messages are checked apart, a slice at a time, so a long conversation does not hold the
  // event loop: class-validator takes tens of microseconds per message.
  const raw0 = input.conversation;
  const rawMessages = isObject(raw0) && Array.isArray(raw0.messages) ? (raw0.messages as unknown[]) : null;
  const head = rawMessages && isObject(raw0) ? { ...input, conversation: { ...raw0, messages: [] } } : input;
  const doc = plainToInstance(ConversationExport, head, { excludeExtraneousValues: true });
  const docProblems = problemsOf(validateSync(doc, VALIDATION), '$');
  const messageProblems = rawMessages ? await checkMessageItems(doc.conversation, rawMessages, version) : [];
  const found = new ProblemsByPart([...docProblems, ...messageProblems]);
  problems.addAll(found.take('$.exportedAt'));
  problems.addAll(found.take('$.conversation'));
  const raw = input.conversation;
  if (!isObject(raw)) throw problems.rejection();
  const c = doc.conversation;
  const at = '$.conversation';

  for (const field of ['title', 'createdAt', 'updatedAt']) problems.addAll(found.take(`${at}.${field}`));
  const state = checkState(problems, raw.state, at);
  for (const field of ['archived', 'pinned']) problems.addAll(found.take(`${at}.${field}`));
  const tagList = found.take(`${at}.tags`);
  problems.addAll(tagList);
  if (tagList.length === 0) checkTags(problems, c, at);
  problems.addAll(found.take(`${at}.agent`));
  problems.addAll(found.take(`${at}.messages`));
  checkMessages(problems, found, c, at, limits.maxMessageChars);
  problems.addAll(found.take(`${at}.threads`));
  checkUnique(problems, found, c.threads, `${at}.threads`, 'name', (name) => `"${name}" is listed twice`);
  problems.addAll(found.take(`${at}.summaries`));
  checkUnique(
    problems,
    found,
    c.summaries,
    `${at}.summaries`,
    'thread',
    (thread) => `"${thread}" has a summary already`,
  );
  problems.addAll(found.rest());

  if (problems.total > 0) throw problems.rejection();
  const tree = version === 2 ? checkTree(problems, c, at) : null;
  if (problems.total > 0) throw problems.rejection();
  return buildImport(c, state, now, version, tree);
}

/** How many messages are checked between two turns of the event loop (a few tens of milliseconds' work). */
const MESSAGES_PER_SLICE = 1_000;

/**
 * Each message of the document as ExportedMessage, validated alone, a slice at a time with the
 * event loop let go between slices; the instances replace the conversation's (empty) list.
 * Returns their problems, with the paths a whole-document validation would give them.
 */
async function checkMessageItems(
  conversation: ExportedConversation | undefined,
  items: readonly unknown[],
  version: ExportVersion,
): Promise<ExportProblem[]> {
  const problems: ExportProblem[] = [];
  const messages: ExportedMessage[] = [];
  for (let start = 0; start < items.length; start += MESSAGES_PER_SLICE) {
    if (start > 0) await new Promise<void>((resolve) => setImmediate(resolve));
    items.slice(start, start + MESSAGES_PER_SLICE).forEach((item, j) => {
      const path = `$.conversation.messages[${start + j}]`;
      if (!isObject(item)) {
        problems.push({ path, message: NOT_AN_OBJECT });
        messages.push(item as ExportedMessage);
        return;
      }
      // Version 1 has no message ids or parents: such keys are ignored there, as they always were.
      const described = version === 1 ? { ...item, id: undefined, parentId: undefined } : item;
      const message = plainToInstance(ExportedMessage, described, { excludeExtraneousValues: true });
      problems.push(...problemsOf(validateSync(message, VALIDATION), path));
      messages.push(message);
    });
  }
  if (conversation) (conversation as { messages: ExportedMessage[] }).messages = messages;
  return problems;
}

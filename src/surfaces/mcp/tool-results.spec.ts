import { Logger } from '@nestjs/common';
import {
  ConversationNotFoundError,
  ForbiddenConversationError,
  InvalidInputError,
} from '../../conversations/conversation.errors.js';
import { StorageUnavailableError } from '../../common/storage.errors.js';
import { toolErrorOf } from './tool-results.js';

const textOf = (r: ReturnType<typeof toolErrorOf>) => (r.content[0] as { text: string }).text;

describe('toolErrorOf', () => {
  beforeAll(() => Logger.overrideLogger(false));

  it('answers another actor’s conversation exactly like a missing one', () => {
    const foreign = toolErrorOf(new ForbiddenConversationError('c1'));
    expect(foreign).toEqual(toolErrorOf(new ConversationNotFoundError('c1')));
    expect(foreign).toEqual({ isError: true, content: [{ type: 'text', text: 'Conversation c1 not found' }] });
  });

  it('names invalid input and storage failures with when to retry', () => {
    expect(textOf(toolErrorOf(new InvalidInputError('q must not be empty')))).toBe(
      'Invalid arguments: q must not be empty',
    );
    expect(textOf(toolErrorOf(new StorageUnavailableError('The database is unavailable; try again shortly')))).toBe(
      'The database is unavailable; try again shortly (storage_unavailable; retry in 5 s)',
    );
  });

  it('answers anything unexpected without its details', () => {
    const result = toolErrorOf(new Error('SELECT secret FROM somewhere'));
    expect(result.isError).toBe(true);
    expect(textOf(result)).not.toContain('secret');
    // A driver's error is the database service's to convert (database/driver-errors.spec.ts): one that got past it is a bug.
    expect(textOf(toolErrorOf(Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR' })))).toBe(
      'Internal error: the tool failed; nothing was changed',
    );
  });
});

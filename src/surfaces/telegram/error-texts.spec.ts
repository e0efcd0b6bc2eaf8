import { ChatTurnFailedError, ReplyNotStoredError } from '../../chat/chat.errors.js';
import { DOMAIN_ERROR_CODES } from '../../common/domain-error.js';
import { AgentInUseError } from '../../agents/agent.errors.js';
import {
  ConversationBusyError,
  ConversationNotFoundError,
  ForbiddenConversationError,
  InvalidInputError,
} from '../../conversations/conversation.errors.js';
import { StorageFullError } from '../../common/storage.errors.js';
import { ERROR_TEXTS, errorText } from './error-texts.js';
import { TEXTS } from './texts.js';

describe('ERROR_TEXTS, what a Telegram user reads for each error code', () => {
  it('has an entry for every code', () => {
    expect(Object.keys(ERROR_TEXTS).sort()).toEqual([...DOMAIN_ERROR_CODES].sort());
  });

  it('apologises for a failed turn, whatever its reason, and says when storage is the cause', () => {
    expect(errorText(new ChatTurnFailedError('model_timeout', 'slow', 'c', 'u', 'm'))).toBe(TEXTS.apology);
    expect(errorText(new ReplyNotStoredError(new StorageFullError('full'), 'c', 'u', 'm'))).toBe(TEXTS.storage);
    expect(errorText(new StorageFullError('full'))).toBe(TEXTS.storage);
    expect(errorText(new ConversationBusyError('c', 'm'))).toBe(TEXTS.busy);
  });

  it('repeats what the user can fix, and leaves the unexpected to the generic failure', () => {
    expect(errorText(new InvalidInputError('message must not be empty'))).toBe('Sorry: message must not be empty.');
    expect(errorText(new AgentInUseError('a', 2))).toBeNull();
  });

  it("reads another actor's conversation exactly like a missing one", () => {
    expect(errorText(new ForbiddenConversationError('c'))).toBe(errorText(new ConversationNotFoundError('c')));
  });
});

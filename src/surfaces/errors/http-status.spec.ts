import { Logger } from '@nestjs/common';
import { ChatTurnFailedError, ReplyNotStoredError } from '../../chat/chat.errors.js';
import { DOMAIN_ERROR_CODES, REPLY_ERROR_CODES, type DomainErrorCode } from '../../common/domain-error.js';
import { ConversationNotFoundError, ForbiddenConversationError } from '../../conversations/conversation.errors.js';
import { StorageBusyError, StorageFullError } from '../../common/storage.errors.js';
import { ModelCancelledError, ModelTimeoutError } from '../../llm/llm.errors.js';
import { TooManyRequestsError } from '../../rate-limits/too-many-requests.error.js';
import { httpErrorOf } from './http-error.filter.js';
import { failedStatus, HTTP_STATUS, replyErrorBody } from './http-status.js';

describe('HTTP_STATUS, the one map from domain error codes to HTTP statuses', () => {
  beforeAll(() => Logger.overrideLogger(false));

  it('has a status for every code, and nothing else', () => {
    expect(Object.keys(HTTP_STATUS).sort()).toEqual([...DOMAIN_ERROR_CODES].sort());
    for (const status of Object.values(HTTP_STATUS)) expect(status >= 400 && status <= 599).toBe(true);
  });

  it('fails the type check for a table that misses a code', () => {
    // @ts-expect-error a code without a status does not compile
    const partial: Record<DomainErrorCode, number> = { conversation_not_found: 404 };
    expect(partial).toBeDefined();
  });

  it('gives stored replies the statuses the API has always shown', () => {
    expect(Object.fromEntries(REPLY_ERROR_CODES.map((code) => [code, HTTP_STATUS[code]]))).toEqual({
      model_unavailable: 502,
      model_timeout: 504,
      interrupted: 502,
      reply_too_long: 413,
      reply_timeout: 504,
    });
    expect(replyErrorBody({ code: 'interrupted', message: 'gone' })).toEqual({ statusCode: 502, message: 'gone' });
    expect(replyErrorBody(null)).toBeNull();
    expect(failedStatus(null)).toBe(502);
  });

  it('answers errors by their code; a wrapping error by what it wraps', () => {
    expect(httpErrorOf(new ConversationNotFoundError('c1'))).toEqual({
      status: 404,
      message: 'Conversation c1 not found',
      extra: { code: 'conversation_not_found' },
    });
    // Another actor's conversation answers exactly like a missing one, on every route.
    expect(httpErrorOf(new ForbiddenConversationError('c1'))).toEqual(httpErrorOf(new ConversationNotFoundError('c1')));
    expect(httpErrorOf(new ChatTurnFailedError('model_timeout', 'slow', 'c', 'u', 'm'))).toMatchObject({
      status: 504,
      extra: { code: 'chat_turn_failed', conversationId: 'c', userMessageId: 'u', messageId: 'm' },
    });
    expect(httpErrorOf(new ChatTurnFailedError('interrupted', 'gone', 'c', 'u', 'm'))?.status).toBe(502);
    expect(httpErrorOf(new ReplyNotStoredError(new StorageFullError('full'), 'c', 'u', 'm'))).toMatchObject({
      status: 507,
      retryAfterSeconds: 30,
      extra: { code: 'reply_not_stored' },
    });
    expect(httpErrorOf(new StorageBusyError('busy'))).toMatchObject({
      status: 503,
      retryAfterSeconds: 2,
      extra: { code: 'storage_busy' },
    });
    expect(httpErrorOf(new TooManyRequestsError(7, 'RATE_LIMIT_PER_MINUTE'))).toMatchObject({
      status: 429,
      retryAfterSeconds: 7,
      extra: { code: 'too_many_requests' },
    });
    expect(httpErrorOf(new ModelTimeoutError(1000))?.status).toBe(504);
    expect(httpErrorOf(new StorageFullError('full'))).toMatchObject({
      status: 507,
      retryAfterSeconds: 30,
      extra: { code: 'storage_full' },
    });
  });

  it('leaves what this surface never answers to the 500 path (logged, no details)', () => {
    expect(httpErrorOf(new ModelCancelledError())).toBeNull();
    expect(httpErrorOf(new Error('boom'))).toBeNull();
    // A driver's error is the database service's to convert (database/driver-errors.spec.ts): one that got past it is a bug.
    expect(httpErrorOf(Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' }))).toBeNull();
  });
});

import { Catch, HttpException, Logger, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { Response } from 'express';
import { ChatTurnFailedError } from '../../chat/chat.errors.js';
import { BrokenFunctionRoundError } from '../../chat/function-rounds.js';
import { DomainError, type DomainErrorCode } from '../../common/domain-error.js';
import {
  ConversationBusyError,
  ConversationNotFoundError,
  ForbiddenConversationError,
} from '../../conversations/conversation.errors.js';
import { TooManyRequestsError } from '../../rate-limits/too-many-requests.error.js';
import { Metrics } from '../../metrics/metrics.js';
import { httpErrorOf, httpStatusOf } from '../errors/http-error.filter.js';
import { conversationId } from './openai-ids.js';
import { openAiErrorBody, OpenAiError } from './openai-error.js';
import { describeError } from '../../common/describe-error.js';

/**
 * The `code` of an OpenAI error body for each domain error code: OpenAI's own where it has one
 * (`context_length_exceeded`, `rate_limit_exceeded`), `conversation_locked` while a reply is
 * generated, ours otherwise. Exhaustive: a new domain code fails the type check until mapped.
 */
const OPENAI_CODES: Record<DomainErrorCode, string> = {
  conversation_not_found: 'not_found',
  // Another actor's conversation is unknown here, exactly like a missing one.
  conversation_forbidden: 'not_found',
  conversation_busy: 'conversation_locked',
  conversation_state: 'invalid_state',
  message_not_found: 'not_found',
  memory_not_found: 'not_found',
  share_not_found: 'not_found',
  invalid_input: 'invalid_value',
  limit_reached: 'limit_reached',
  import_rejected: 'invalid_value',
  archive_format_unknown: 'invalid_value',
  archive_malformed: 'invalid_value',
  archive_too_large: 'invalid_value',
  archive_zip_invalid: 'invalid_value',
  archive_zip_unsupported: 'invalid_value',
  archive_zip_without_conversations: 'invalid_value',
  archive_unzipped_too_large: 'invalid_value',
  archive_too_many_conversations: 'invalid_value',
  context_over_budget: 'context_length_exceeded',
  model_not_offered: 'model_not_found',
  agent_not_found: 'model_not_found',
  agent_in_use: 'invalid_state',
  idempotency_key_reused: 'invalid_value',
  idempotency_key_in_progress: 'conversation_locked',
  too_many_requests: 'rate_limit_exceeded',
  chat_turn_failed: 'model_unavailable',
  reply_not_stored: 'storage_unavailable',
  model_unavailable: 'model_unavailable',
  model_timeout: 'model_timeout',
  model_cancelled: 'cancelled',
  interrupted: 'interrupted',
  reply_too_long: 'reply_too_long',
  reply_timeout: 'reply_timeout',
  storage_full: 'storage_full',
  storage_unavailable: 'storage_unavailable',
  storage_busy: 'storage_busy',
  telegram_inbox_full: 'server_busy',
  telegram_update_too_large: 'invalid_value',
};

/** Codes of Nest's own refusals (validation, a missing key, an unknown route), by status. */
const HTTP_CODES: Record<number, string> = {
  400: 'invalid_value',
  401: 'invalid_api_key',
  404: 'not_found',
  405: 'method_not_allowed',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limit_exceeded',
};

interface OpenAiAnswer {
  readonly status: number;
  readonly message: string;
  readonly code: string | null;
  readonly param: string | null;
  readonly retryAfterSeconds?: number;
}

/** Any error as the OpenAI surface answers it; null for an unexpected one (a 500 without details). */
export function openAiAnswerOf(error: unknown): OpenAiAnswer | null {
  if (error instanceof OpenAiError)
    return { status: error.status, message: error.message, code: error.code, param: error.param };
  if (error instanceof HttpException) {
    const known = httpErrorOf(error)!;
    return { status: known.status, message: known.message, code: HTTP_CODES[known.status] ?? null, param: null };
  }
  // Storage failures arrive as domain errors too (StorageError): the database service converts its driver's.
  if (!(error instanceof DomainError)) return null;
  const domain = error;
  if (error instanceof ConversationNotFoundError || error instanceof ForbiddenConversationError) {
    return {
      status: 404,
      message: `Conversation with id '${conversationId(error.conversationId)}' not found.`,
      code: 'not_found',
      param: null,
    };
  }
  const status = httpStatusOf(domain);
  if (domain.code === 'model_cancelled') return null;
  const code = domain instanceof ChatTurnFailedError ? OPENAI_CODES[domain.reason] : OPENAI_CODES[domain.code];
  const message =
    domain instanceof ConversationBusyError
      ? 'Another response is being generated in this conversation; wait for it to finish'
      : domain.message;
  const retry =
    domain instanceof TooManyRequestsError
      ? domain.retryAfterSeconds
      : (httpErrorOf(domain)?.retryAfterSeconds ?? undefined);
  const param = domain instanceof BrokenFunctionRoundError ? 'input' : null;
  return {
    status,
    message: domain instanceof ChatTurnFailedError ? `${message}. Your input was saved in the conversation.` : message,
    code,
    param,
    retryAfterSeconds: retry,
  };
}

/** Writes an OpenAI error body (or ends a response whose headers are already out). */
function sendOpenAiError(response: Response, answer: OpenAiAnswer): void {
  if (response.headersSent) {
    response.end();
    return;
  }
  if (answer.retryAfterSeconds !== undefined) response.set('Retry-After', String(answer.retryAfterSeconds));
  if (answer.status === 401) response.set('WWW-Authenticate', 'Bearer');
  response.status(answer.status).json(openAiErrorBody(answer.status, answer.message, answer.code, answer.param));
}

/** The OpenAI surface's one map from errors to answers, on each of its controllers. */
@Catch()
export class OpenAiErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('OpenAiError');

  constructor(private readonly metrics: Metrics) {}

  catch(error: unknown, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<Response>();
    const answer = openAiAnswerOf(error);
    if (answer) {
      this.metrics.errorAnswered(answer.status, answer.code ?? 'http');
      return sendOpenAiError(response, answer);
    }
    this.logger.error(describeError(error));
    this.metrics.errorAnswered(500, 'internal');
    sendOpenAiError(response, { status: 500, message: 'Internal server error', code: 'internal', param: null });
  }
}

import {
  Catch,
  HttpException,
  HttpStatus,
  Logger,
  NotFoundException,
  type ArgumentsHost,
  type ExceptionFilter,
} from '@nestjs/common';
import type { Request, Response } from 'express';
import { allowedMethods } from './allowed-methods.js';
import { AgentInUseError } from '../../agents/agent.errors.js';
import { ChatTurnFailedError, ReplyNotStoredError } from '../../chat/chat.errors.js';
import { DomainError } from '../../common/domain-error.js';
import { StorageError } from '../../common/storage.errors.js';
import { ContextOverBudgetError } from '../../context/context-planner.js';
import {
  ConversationBusyError,
  ConversationNotFoundError,
  ForbiddenConversationError,
} from '../../conversations/conversation.errors.js';
import { ImportRejectedError } from '../../portability/import-problems.js';
import { ArchiveError } from '../../portability/archives/archive.errors.js';
import { TooManyRequestsError } from '../../rate-limits/too-many-requests.error.js';
import { Metrics } from '../../metrics/metrics.js';
import { sendError } from './error-body.js';
import { HTTP_STATUS, UNEXPECTED } from './http-status.js';
import { describeError } from '../../common/describe-error.js';

/** An error as an HTTP answer: its status, message, and fields added to the common body (a domain error's `code` among them). */
export interface HttpError {
  readonly status: number;
  readonly message: string;
  readonly extra?: Record<string, unknown>;
  /** Sent as Retry-After: when the same request may succeed. */
  readonly retryAfterSeconds?: number;
}

/** The HTTP answer for a known error, or null for an unexpected one (a 500). */
export function httpErrorOf(error: unknown): HttpError | null {
  if (error instanceof HttpException) return { status: error.getStatus(), message: httpMessage(error) };
  // Storage failures arrive as domain errors too (StorageError): the database service converts its driver's.
  if (!(error instanceof DomainError)) return null;
  // Another actor's conversation is answered as a missing one on every route: status, message and code alike.
  const known =
    error instanceof ForbiddenConversationError ? new ConversationNotFoundError(error.conversationId) : error;
  const status = httpStatusOf(known);
  if (status === UNEXPECTED) return null;
  const details = detailsOf(known);
  // The domain error's stable code goes into every body (a wrapper may name its cause's instead).
  return { status, ...details, extra: { code: known.code, ...details.extra } };
}

/** The status of a domain error, from HTTP_STATUS; errors that wrap another take the status of what they wrap. */
export function httpStatusOf(error: DomainError): number {
  if (error instanceof ChatTurnFailedError) return HTTP_STATUS[error.reason];
  if (error instanceof ReplyNotStoredError) return HTTP_STATUS[error.cause.code];
  return HTTP_STATUS[error.code];
}

/** What an answer says besides its status: the message, and the fields a client acts on. */
function detailsOf(error: DomainError): Omit<HttpError, 'status'> {
  if (error instanceof ImportRejectedError) return { message: error.message, extra: { problems: error.problems } };
  // An archive that goes wrong part way says which conversations before that point were stored.
  if (error instanceof ArchiveError)
    return { message: error.message, extra: { code: error.code, imported: error.imported } };
  if (error instanceof ConversationBusyError)
    return { message: error.message, extra: { conversationId: error.conversationId, messageId: error.messageId } };
  if (error instanceof ContextOverBudgetError)
    return { message: error.message, extra: { code: error.code, ...error.details } };
  if (error instanceof AgentInUseError)
    return { message: error.message, extra: { conversations: error.conversations } };
  if (error instanceof TooManyRequestsError)
    return { message: error.message, retryAfterSeconds: error.retryAfterSeconds };
  if (error instanceof ChatTurnFailedError) {
    return {
      message: `${error.message}. Your message was saved in the conversation.`,
      extra: { conversationId: error.conversationId, userMessageId: error.userMessageId, messageId: error.messageId },
    };
  }
  // Both say when to retry.
  if (error instanceof StorageError)
    return { message: error.message, extra: { code: error.code }, retryAfterSeconds: error.retryAfterSeconds };
  if (error instanceof ReplyNotStoredError) {
    return {
      message: `${error.message}. Your message was saved in the conversation; the reply will be stored if the database recovers shortly.`,
      extra: {
        code: error.code,
        conversationId: error.conversationId,
        userMessageId: error.userMessageId,
        messageId: error.messageId,
      },
      retryAfterSeconds: error.cause.retryAfterSeconds,
    };
  }
  return { message: error.message };
}

/**
 * The one place where domain errors become HTTP answers. Anything unexpected is logged with
 * its stack and answered 500 without details, so internals never reach a client.
 */
@Catch()
export class HttpErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('HttpError');

  constructor(private readonly metrics: Metrics) {}

  catch(error: unknown, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<Response>();
    // Nest's 404 for a request no route took (req.route unset): a path that exists with other methods is a 405.
    const request = host.switchToHttp().getRequest<Request | undefined>();
    if (error instanceof NotFoundException && request && !request.route) {
      const allowed = allowedMethods(request);
      if (allowed.length) {
        this.metrics.errorAnswered(HttpStatus.METHOD_NOT_ALLOWED, 'http');
        response.set('Allow', allowed.join(', '));
        return sendError(
          response,
          HttpStatus.METHOD_NOT_ALLOWED,
          `${request.method} is not allowed on ${request.path}; it answers ${allowed.join(', ')}`,
        );
      }
    }
    const known = httpErrorOf(error);
    if (known) {
      this.metrics.errorAnswered(known.status, metricCode(error));
      if (known.retryAfterSeconds !== undefined && !response.headersSent)
        response.set('Retry-After', String(known.retryAfterSeconds));
      return sendError(response, known.status, known.message, known.extra);
    }
    this.logger.error(describeError(error));
    this.metrics.errorAnswered(HttpStatus.INTERNAL_SERVER_ERROR, 'internal');
    sendError(response, HttpStatus.INTERNAL_SERVER_ERROR, 'Internal server error');
  }
}

/** A domain error's stable code; `http` for Nest's own exceptions (validation, 401, 404 route...). Bounded, so a fit label. */
function metricCode(error: unknown): string {
  if (error instanceof HttpException) return 'http';
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && /^[a-z_]{1,64}$/.test(code) ? code : 'other';
}

/** Nest puts validation messages in an array; clients get one readable sentence. */
function httpMessage(error: HttpException): string {
  const body = error.getResponse();
  const message = typeof body === 'string' ? body : (body as { message?: unknown }).message;
  if (Array.isArray(message)) return message.join('; ');
  return typeof message === 'string' ? message : error.message;
}

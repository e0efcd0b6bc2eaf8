import { Catch, HttpException, HttpStatus, Logger, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { Response } from 'express';
import { ChatTurnFailedError } from '../../../chat/chat.errors.js';
import {
  ConversationBusyError,
  ConversationNotFoundError,
  ConversationStateError,
  ForbiddenConversationError,
  InvalidInputError,
  MessageNotFoundError,
} from '../../../conversations/conversation.errors.js';
import { sendError } from './error-body.js';

/**
 * The one place where domain errors become HTTP answers. Anything unexpected is logged with
 * its stack and answered 500 without details, so internals never reach a client.
 */
@Catch()
export class HttpErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('HttpError');

  catch(error: unknown, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<Response>();
    if (error instanceof HttpException) return sendError(response, error.getStatus(), httpMessage(error));
    if (error instanceof ConversationNotFoundError || error instanceof MessageNotFoundError) {
      return sendError(response, HttpStatus.NOT_FOUND, error.message);
    }
    if (error instanceof ForbiddenConversationError) {
      return sendError(response, HttpStatus.FORBIDDEN, 'This conversation belongs to another actor');
    }
    if (error instanceof InvalidInputError) return sendError(response, HttpStatus.BAD_REQUEST, error.message);
    if (error instanceof ConversationBusyError) {
      return sendError(response, HttpStatus.CONFLICT, error.message, { conversationId: error.conversationId, messageId: error.messageId });
    }
    if (error instanceof ConversationStateError) return sendError(response, HttpStatus.CONFLICT, error.message);
    if (error instanceof ChatTurnFailedError) {
      return sendError(response, error.status, `${error.message}. Your message was saved in the conversation.`, {
        conversationId: error.conversationId,
        userMessageId: error.userMessageId,
        messageId: error.messageId,
      });
    }
    this.logger.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    sendError(response, HttpStatus.INTERNAL_SERVER_ERROR, 'Internal server error');
  }
}

/** Nest puts validation messages in an array; clients get one readable sentence. */
function httpMessage(error: HttpException): string {
  const body = error.getResponse();
  const message = typeof body === 'string' ? body : (body as { message?: unknown }).message;
  if (Array.isArray(message)) return message.join('; ');
  return typeof message === 'string' ? message : error.message;
}

import { Catch, HttpStatus, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { Response } from 'express';
import { ForbiddenConversationError } from '../../../conversations/conversation.errors.js';
import { sendError } from './error-body.js';

/**
 * On resource routes another actor's conversation answers exactly like a missing one, so ids
 * cannot be probed. Applies to errors from guards and handlers alike.
 */
@Catch(ForbiddenConversationError)
export class ConcealForeignConversationFilter implements ExceptionFilter {
  catch(error: ForbiddenConversationError, host: ArgumentsHost): void {
    sendError(host.switchToHttp().getResponse<Response>(), HttpStatus.NOT_FOUND, `Conversation ${error.conversationId} not found`, { code: 'conversation_not_found' });
  }
}

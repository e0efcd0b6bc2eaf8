import {
  Body,
  Controller,
  Get,
  HttpCode,
  HttpStatus,
  Inject,
  Param,
  ParseUUIDPipe,
  Patch,
  Post,
  Res,
} from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import type { Actor } from '../../../actor-auth/actor.js';
import { CurrentActor } from '../../../actor-auth/current-actor.decorator.js';
import { ChatService } from '../../../chat/chat.service.js';
import { APP_CONFIG, type AppConfig } from '../../../config/app-config.js';
import { ConversationsService } from '../../../conversations/conversations.service.js';
import { ApiErrors } from '../../errors/api-errors.decorator.js';
import { MessageDto, PinMessageDto, toMessageDto } from '../dto/message.dto.js';
import { EventStream } from '../../streaming/event-stream.js';
import { ApiEventStream } from '../sse/sse-docs.js';
import { CountedStream } from '../../streaming/stream-slots.js';
import { sendOutcome } from '../sse/stream-turn.js';
import { storedOutcome } from '../../streaming/stored-outcome.js';

/** One message of a conversation: follow it as it is generated, or stop it. */
@ApiTags('messages')
@ApiBearerAuth()
@Controller('api/conversations/:id/messages/:messageId')
export class MessagesController {
  constructor(
    private readonly chat: ChatService,
    private readonly conversations: ConversationsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Patch()
  @ApiOperation({
    operationId: 'pinMessage',
    summary: 'Pin or unpin a message',
    description:
      "A pinned message reaches the model on every turn while it is on its thread's active path, whatever the window or the summary, " +
      'counted in the budget: pinning answers 400 (context_over_budget) when the next turn could not fit it; 409 for a message that is not a complete user or assistant message.',
  })
  @ApiOkResponse({ type: MessageDto })
  @ApiErrors([400, 401, 404, 409])
  async pin(
    @CurrentActor() actor: Actor,
    @Param('id', ParseUUIDPipe) id: string,
    @Param('messageId', ParseUUIDPipe) messageId: string,
    @Body() body: PinMessageDto,
  ): Promise<MessageDto> {
    return toMessageDto(await this.chat.pinMessage(actor, id, messageId, body.pinned));
  }

  @Get('stream')
  @ApiOperation({
    operationId: 'followMessage',
    summary: 'Follow a reply as it is generated (works from any instance)',
    description:
      'Sends the text stored so far as a first `delta`, then each addition, then `done` {messageId, reply, status, model, usage} ' +
      'or `error` {statusCode, message, messageId, partial}. A finished message is sent at once.',
  })
  @ApiEventStream('Server-sent events: `delta` {text}…, then `done` or `error`.', 'follow')
  @CountedStream()
  @ApiErrors([400, 401, 404])
  async follow(
    @CurrentActor() actor: Actor,
    @Param('id', ParseUUIDPipe) id: string,
    @Param('messageId', ParseUUIDPipe) messageId: string,
    @Res() res: Response,
  ): Promise<void> {
    // Unknown or foreign ids answer a JSON 404 before the stream opens.
    await this.conversations.getMessage(actor, id, messageId);
    const sse = new EventStream(res, this.config);
    try {
      const message = await this.chat.follow(actor, id, messageId, (text) => sse.delta(text), sse.clientGone);
      if (message.status !== 'streaming') sendOutcome(sse, message.id, storedOutcome(message));
    } finally {
      sse.end();
    }
  }

  @Post('cancel')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    operationId: 'cancelMessage',
    summary: 'Stop a reply being generated (from any instance)',
    description:
      'The text generated so far is kept with status "cancelled". Answers the message once it has stopped ' +
      '(a finished message is returned unchanged).',
  })
  @ApiOkResponse({ type: MessageDto })
  @ApiErrors([400, 401, 404])
  async cancel(
    @CurrentActor() actor: Actor,
    @Param('id', ParseUUIDPipe) id: string,
    @Param('messageId', ParseUUIDPipe) messageId: string,
  ): Promise<MessageDto> {
    return toMessageDto(await this.chat.cancel(actor, id, messageId));
  }
}

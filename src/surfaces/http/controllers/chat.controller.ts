import { Body, Controller, HttpCode, HttpStatus, Inject, Post, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import type { Actor } from '../../../actor-auth/actor.js';
import { CurrentActor } from '../../../actor-auth/current-actor.decorator.js';
import { ChatService } from '../../../chat/chat.service.js';
import { APP_CONFIG, type AppConfig } from '../../../config/app-config.js';
import { ApiErrors } from '../../errors/api-errors.decorator.js';
import { toChatRequest, toChatResponse } from '../dto/chat-result.mapper.js';
import { ChatRequestDto, ChatResponseDto } from '../dto/chat.dto.js';
import { ChatErrorDto } from '../../errors/error.dto.js';
import { ApiIdempotencyKey, IdempotencyKeyHeader } from '../idempotency/idempotency-key.header.js';
import { IdempotentChat } from '../idempotency/idempotent-chat.js';
import { ApiEventStream, TURN_EVENTS } from '../sse/sse-docs.js';
import { CountedStream } from '../../streaming/stream-slots.js';
import { streamTurn } from '../sse/stream-turn.js';

@ApiTags('chat')
@ApiBearerAuth()
@Controller('api/chat')
export class ChatController {
  constructor(
    private readonly chat: ChatService,
    private readonly idempotent: IdempotentChat,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post()
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    operationId: 'chat',
    summary: 'Send a message and get the reply',
    description:
      'Starts a conversation (no conversationId) or resumes one, replays its recent history to the model, ' +
      'stores both messages and returns the reply. The user message is stored before the model is called.',
  })
  @ApiIdempotencyKey()
  @ApiOkResponse({ type: ChatResponseDto })
  @ApiErrors([400, 401, 404, 413, 422])
  @ApiErrors([409, 502, 504], ChatErrorDto)
  async send(
    @CurrentActor() actor: Actor,
    @Body() body: ChatRequestDto,
    @IdempotencyKeyHeader() idempotencyKey: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ChatResponseDto | Record<string, unknown>> {
    const request = toChatRequest(body);
    if (!idempotencyKey) return toChatResponse(await this.chat.run(actor, { ask: request }));
    const answer = await this.idempotent.send(actor, idempotencyKey, request);
    res.status(answer.status);
    return answer.body;
  }

  @Post('stream')
  @ApiOperation({
    operationId: 'chatStream',
    summary: 'Send a message and stream the reply',
    description:
      'Same turn as POST /api/chat, answered as server-sent events. Errors found before the stream starts ' +
      '(validation, authentication, ownership, a reply already in progress) are ordinary JSON answers. If the client ' +
      'disconnects, the reply is still generated and stored.',
  })
  @ApiIdempotencyKey()
  @ApiEventStream(TURN_EVENTS)
  @CountedStream()
  @ApiErrors([400, 401, 404, 413, 422])
  @ApiErrors([409], ChatErrorDto)
  async stream(
    @CurrentActor() actor: Actor,
    @Body() body: ChatRequestDto,
    @IdempotencyKeyHeader() idempotencyKey: string | undefined,
    @Res() res: Response,
  ): Promise<void> {
    const request = toChatRequest(body);
    if (idempotencyKey) return this.idempotent.stream(actor, idempotencyKey, request, res);
    await streamTurn(res, this.config, (events) => this.chat.run(actor, { ask: request }, { events }));
  }
}

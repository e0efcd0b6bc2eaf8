import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Response } from 'express';
import type { Actor } from '../../actor-auth/actor.js';
import { ChatService } from '../../chat/chat.service.js';
import { describeError } from '../../common/describe-error.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import type { Message } from '../../conversations/message.entity.js';
import type { ResponseRequest } from '../../conversations/response-record.entity.js';
import { openAiAnswerOf } from './openai-error.filter.js';
import { ResponseEventStream } from './openai-response-stream.js';
import { storedReplyView, toOpenAiResponse } from './openai-responses.js';

const logger = new Logger('OpenAiResponses');

/**
 * A stored response's events replayed from the database and followed to its end, from any
 * instance (`GET /v1/responses/{id}?stream=true`, and a background response created with
 * `stream: true`).
 */
@Injectable()
export class ResponseReplay {
  constructor(
    private readonly chat: ChatService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The events numbered so that every replay agrees (see Replay), those up to `startingAfter` left out. */
  async replay(
    actor: Actor,
    message: Message,
    request: ResponseRequest | null,
    startingAfter: number | null,
    res: Response,
  ): Promise<void> {
    const events = new ResponseEventStream(res, this.config, message.id, { startingAfter });
    try {
      events.started(
        toOpenAiResponse(
          {
            ...storedReplyView(message),
            status: 'streaming',
            content: '',
            functionCalls: [],
            usage: null,
            error: null,
          },
          request,
          [],
        ),
      );
      const final = await this.chat.follow(
        actor,
        message.conversationId,
        message.id,
        (piece) => events.delta(piece),
        events.clientGone,
      );
      // Still being generated (the client left, or this instance is stopping): no closing events; the client follows again.
      if (final.status === 'streaming') return;
      const view = storedReplyView(final);
      events.finish(view, toOpenAiResponse(view, request));
    } catch (error) {
      const answer = openAiAnswerOf(error);
      if (!answer) logger.error(describeError(error));
      events.error(answer?.message ?? 'Internal server error', answer?.code ?? 'internal');
    } finally {
      events.end();
    }
  }
}

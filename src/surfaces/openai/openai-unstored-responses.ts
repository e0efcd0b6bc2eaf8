import { Inject, Injectable } from '@nestjs/common';
import type { Response } from 'express';
import { randomUUID } from 'node:crypto';
import type { Actor } from '../../actor-auth/actor.js';
import { ChatService } from '../../chat/chat.service.js';
import { type ChatRequest } from '../../chat/chat-request.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import type { ResponseRequest } from '../../conversations/response-record.entity.js';
import { pipeTurn } from '../streaming/turn-pipeline.js';
import { openAiAnswerOf } from './openai-error.filter.js';
import { ResponseEventStream } from './openai-response-stream.js';
import { toOpenAiResponse, type ReplyView } from './openai-responses.js';

/**
 * `store: false`: the input alone is the history and nothing is written; the response has an
 * id of its own that nothing can retrieve. Streamed, the events start with the first text.
 */
@Injectable()
export class UnstoredResponses {
  constructor(
    private readonly chat: ChatService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async answer(
    actor: Actor,
    chat: ChatRequest,
    record: ResponseRequest,
    stream: boolean,
    res: Response,
  ): Promise<void> {
    const id = randomUUID();
    const createdAt = new Date();
    // A reply as the generator ended it, or as the stream stands before that (no model named yet: the one asked for).
    const viewOf = (
      reply: Pick<ReplyView, 'status' | 'content' | 'usage' | 'error'> & {
        readonly functionCalls?: ReplyView['functionCalls'];
        readonly model: string | null;
      },
    ): ReplyView => ({
      status: reply.status,
      content: reply.content,
      functionCalls: reply.functionCalls ?? [],
      model: reply.model ?? chat.override?.model ?? this.chat.defaultModel,
      usage: reply.usage,
      error: reply.error,
      messageId: id,
      conversationId: '',
      createdAt,
    });
    const responseOf = (view: ReplyView, output?: Array<Record<string, unknown>>) => ({
      ...toOpenAiResponse(view, { ...record, inConversation: false }, output),
      store: false,
    });
    const request = { items: chat.items ?? [], agentId: chat.agentId, override: chat.override, options: chat.options };
    if (!stream) {
      res.status(200).json(responseOf(viewOf(await this.chat.answerUnstored(actor, request))));
      return;
    }
    await pipeTurn(
      () => {
        const events = new ResponseEventStream(res, this.config, id);
        events.started(
          responseOf(viewOf({ status: 'streaming', content: '', model: null, usage: null, error: null }), []),
        );
        return {
          delta: (piece) => events.delta(piece),
          finish: (reply) => {
            const view = viewOf(reply);
            events.finish(view, responseOf(view));
          },
          fail: (error) => {
            const failed = viewOf({
              status: 'failed',
              content: events.streamedText,
              model: null,
              usage: null,
              error: null,
            });
            events.finish(
              failed,
              responseOf({
                ...failed,
                error: {
                  code: 'model_unavailable',
                  message: openAiAnswerOf(error)?.message ?? 'Internal server error',
                },
              }),
            );
          },
          end: () => events.end(),
        };
      },
      (events) => this.chat.answerUnstored(actor, request, (piece) => events.delta(piece)),
    );
  }
}

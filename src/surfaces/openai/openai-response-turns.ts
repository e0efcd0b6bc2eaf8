import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Response } from 'express';
import type { Actor } from '../../actor-auth/actor.js';
import { ChatService } from '../../chat/chat.service.js';
import { type ChatRequest } from '../../chat/chat-request.js';
import type { ReplyOutcome, StartedTurn } from '../../chat/turn.js';
import { describeError } from '../../common/describe-error.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import type { ResponseRequest } from '../../conversations/response-record.entity.js';
import { ResponseRecordsService } from '../../conversations/response-records.service.js';
import { pipeTurn } from '../streaming/turn-pipeline.js';
import { openAiAnswerOf } from './openai-error.filter.js';
import { ResponseReplay } from './openai-response-replay.js';
import { ResponseEventStream } from './openai-response-stream.js';
import { storedReplyView, toOpenAiResponse, type ReplyView } from './openai-responses.js';

const logger = new Logger('OpenAiResponses');

/**
 * A stored response made by a chat turn, answered whole, streamed, or in the background; the
 * request it was made with is recorded beside its reply once the turn has started.
 */
@Injectable()
export class ResponseTurns {
  constructor(
    private readonly chat: ChatService,
    private readonly records: ResponseRecordsService,
    private readonly replays: ResponseReplay,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The whole response, once the reply is stored. */
  async answer(actor: Actor, chat: ChatRequest, record: ResponseRequest, res: Response): Promise<void> {
    const createdAt = new Date();
    let saved: Promise<void> = Promise.resolve();
    const result = await this.chat.run(
      actor,
      { ask: chat },
      {
        started: (turn) => {
          saved = this.saveRecord(actor, turn, record);
        },
      },
    );
    await saved;
    const view: ReplyView = {
      messageId: result.messageId,
      conversationId: result.conversationId,
      createdAt,
      status: result.status,
      content: result.reply,
      functionCalls: result.functionCalls,
      model: result.model,
      usage: result.usage,
      error: result.reason,
    };
    res.status(200).json(toOpenAiResponse(view, record));
  }

  /** The response's events as the model writes the reply; the reply goes on if the client leaves. */
  stream(actor: Actor, chat: ChatRequest, record: ResponseRequest, res: Response): Promise<void> {
    const createdAt = new Date();
    return pipeTurn(
      (started) => {
        const turn = started!;
        const saved = this.saveRecord(actor, turn, record);
        const viewOf = (
          outcome: Pick<ReplyOutcome, 'content' | 'model' | 'usage' | 'error' | 'functionCalls'> & {
            status: ReplyView['status'];
          },
        ): ReplyView => ({
          messageId: turn.reply.id,
          conversationId: turn.conversation.id,
          createdAt,
          status: outcome.status,
          content: outcome.content,
          functionCalls: outcome.functionCalls ?? [],
          model: outcome.model ?? turn.model,
          usage: outcome.usage,
          error: outcome.error,
        });
        const events = new ResponseEventStream(res, this.config, turn.reply.id);
        events.started(
          toOpenAiResponse(
            viewOf({ status: 'streaming', content: '', model: turn.model, usage: null, error: null }),
            record,
            [],
          ),
        );
        return {
          delta: (piece) => events.delta(piece),
          finish: async (outcome) => {
            await saved;
            const view = viewOf(outcome);
            events.finish(view, toOpenAiResponse(view, record));
          },
          fail: (error) => {
            const answer = openAiAnswerOf(error);
            if (!answer) logger.error(describeError(error));
            const failed = viewOf({
              status: 'failed',
              content: events.streamedText,
              model: turn.model,
              usage: null,
              error: { code: 'model_unavailable', message: answer?.message ?? 'Internal server error' },
            });
            events.finish({ status: 'failed', functionCalls: [] }, toOpenAiResponse(failed, record));
          },
          end: () => events.end(),
        };
      },
      (events) => this.chat.run(actor, { ask: chat }, { events }),
    );
  }

  /**
   * `background: true`: answered as soon as the turn is stored (in progress), the reply
   * generated to its end whoever listens, and stored like any reply, so it is polled, followed
   * (`stream`) or cancelled from any instance. A failure after that is kept on the reply.
   */
  async background(
    actor: Actor,
    chat: ChatRequest,
    record: ResponseRequest,
    stream: boolean,
    res: Response,
  ): Promise<void> {
    const started = new Promise<StartedTurn>((resolve, reject) => {
      // Streamed from the model, so its progress is saved for polls and followers; the answer waits
      // for the record, so a poll right after it reads the response as background.
      const events = {
        started: (turn: StartedTurn) => void this.saveRecord(actor, turn, record).then(() => resolve(turn)),
        delta: () => undefined,
      };
      this.chat.run(actor, { ask: chat }, { events }).catch(reject);
    });
    const turn = await started;
    const view = { ...storedReplyView(turn.reply), model: turn.model };
    if (!stream) {
      res.status(200).json(toOpenAiResponse(view, record, []));
      return;
    }
    await this.replays.replay(actor, turn.reply, record, null, res);
  }

  /** The request is recorded once the turn has started; the reply does not depend on it (it reads back without it). */
  private saveRecord(actor: Actor, turn: StartedTurn, record: ResponseRequest): Promise<void> {
    return this.records.record(actor, turn.reply.id, record).catch((error: unknown) => {
      logger.warn(`The request of response ${turn.reply.id} was not recorded: ${String(error)}`);
    });
  }
}

import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Bot, Context } from 'grammy';
import { ChatTurnFailedError, ReplyNotStoredError } from '../../chat/chat.errors.js';
import { ChatService } from '../../chat/chat.service.js';
import { DomainError } from '../../common/domain-error.js';
import { StorageError } from '../../common/storage.errors.js';
import { ConversationsService } from '../../conversations/conversations.service.js';
import type { StartedTurn } from '../../chat/turn.js';
import type { Actor } from '../../actor-auth/actor.js';
import { TelegramInboxService, type UpdateTurn } from '../../telegram-inbox/telegram-inbox.service.js';
import { sendText, whileTyping } from './replies.js';
import { actorOfChat, promptText } from './routing.js';
import { TELEGRAM_CONFIG } from './telegram.tokens.js';
import type { TelegramConfig } from '../../config/telegram-config.js';
import { errorText, ERROR_TEXTS } from './error-texts.js';
import { TEXTS } from './texts.js';
import { UpdateDeferred } from './update-deferred.js';
import { describeError } from '../../common/describe-error.js';

/**
 * Plain messages: each one is a chat turn in the chat's current conversation (its most
 * recently updated one; a first message starts one). Domain errors become short replies;
 * the reply itself is sent only once it is stored.
 */
@Injectable()
export class TelegramChat {
  private readonly logger = new Logger('TelegramChat');

  constructor(
    private readonly chat: ChatService,
    private readonly conversations: ConversationsService,
    private readonly inbox: TelegramInboxService,
    @Inject(TELEGRAM_CONFIG) private readonly config: TelegramConfig,
  ) {}

  /** Installed after the commands, so it sees only what no command took. */
  install(bot: Bot): void {
    bot.on('message:text', async (ctx) => {
      const command = ctx.message.entities?.some((e) => e.type === 'bot_command' && e.offset === 0);
      if (command) return sendText(ctx, TEXTS.unknownCommand);
      await this.turn(ctx, promptText(ctx.message, ctx.me));
    });
    bot.on('message', (ctx) => sendText(ctx, TEXTS.textOnly));
  }

  private async turn(ctx: Context & { message: NonNullable<Context['message']> }, text: string): Promise<void> {
    if (!text) return sendText(ctx, TEXTS.emptyMention);
    const actor = actorOfChat(ctx.message.chat, ctx.message.from!.id, this.config.agentsFrom);
    const botId = String(ctx.me.id);
    const updateId = ctx.update.update_id;
    let reply: string;
    try {
      reply = await whileTyping(ctx, async () => {
        // A replay after a crash: the turn this update started is finished, never started twice.
        const earlier = await this.inbox.turnOf(botId, updateId);
        if (earlier) return this.resume(actor, earlier);
        const current = await this.conversations.mostRecent(actor);
        // Recorded before the model is called, so a crash while it answers leaves the turn findable.
        const started = (turn: StartedTurn) =>
          this.inbox
            .attachTurn(botId, updateId, { conversationId: turn.conversation.id, replyId: turn.reply.id })
            .catch((error: Error) => {
              this.logger.warn(`Could not record the turn of update ${updateId}: ${error.message}`);
            });
        const result = await this.chat.run(
          actor,
          { ask: { message: text, ...(current ? { conversationId: current.id } : {}) } },
          { started: started },
        );
        // A cut reply says so, or the user would take the text for the whole answer.
        const cut = result.reason && ERROR_TEXTS[result.reason.code];
        return cut ? `${result.reply}\n\n${cut}` : result.reply;
      });
    } catch (error) {
      if (error instanceof UpdateDeferred) throw error;
      return sendText(ctx, this.explain(error));
    }
    // A model may stop with no text at all (a cancelled reply); Telegram refuses empty messages.
    await sendText(ctx, reply.trim() ? reply : '…');
  }

  /**
   * The reply of a turn an earlier attempt started: the stored one, without asking the model
   * again; or, if that attempt died before the reply was stored, answered again in place (so
   * the conversation holds the turn once).
   */
  private async resume(actor: Actor, turn: UpdateTurn): Promise<string> {
    // Waits while the reply is being generated; one whose generator died is closed when its lease passes.
    const reply = await this.chat.follow(actor, turn.conversationId, turn.replyId, () => undefined);
    if (reply.status === 'complete' || reply.status === 'cancelled') return reply.content;
    if (reply.status === 'truncated')
      return `${reply.content}\n\n${ERROR_TEXTS[reply.errorCode === 'reply_too_long' ? 'reply_too_long' : 'reply_timeout']}`;
    // Still generated elsewhere while this process shuts down: left for later, not answered as busy.
    if (reply.status === 'streaming') throw new UpdateDeferred('Its reply is still being generated');
    const [last] = await this.conversations.messagesPage(actor, turn.conversationId, {
      limit: 1,
      thread: reply.thread,
    });
    // Only the thread's last answer can be given again; otherwise report the failure as it stands.
    if (last?.id !== reply.id) {
      throw new ChatTurnFailedError(
        reply.errorCode ?? 'model_unavailable',
        reply.errorMessage ?? 'The model failed',
        turn.conversationId,
        '',
        reply.id,
      );
    }
    return (await this.chat.run(actor, { regenerate: { conversationId: turn.conversationId, thread: reply.thread } }))
      .reply;
  }

  /** What the user is told when a turn does not produce a reply (the texts are ERROR_TEXTS). */
  private explain(error: unknown): string {
    const known = error instanceof DomainError ? error : null;
    const text = known && errorText(known);
    if (!known || text === null) {
      this.logger.error(describeError(error));
      return TEXTS.failure;
    }
    // No content in the log: the ids are enough to find the turn.
    if (known instanceof ChatTurnFailedError)
      this.logger.warn(`Model failure (${known.reason}) in conversation ${known.conversationId}`);
    if (known instanceof ReplyNotStoredError || known instanceof StorageError)
      this.logger.warn(`Storage failure on a Telegram turn: ${known.message}`);
    return text;
  }
}

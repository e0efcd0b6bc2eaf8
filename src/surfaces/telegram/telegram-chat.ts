import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Bot, Context } from 'grammy';
import { ChatTurnFailedError } from '../../chat/chat.errors.js';
import { ChatService } from '../../chat/chat.service.js';
import { ContextOverBudgetError } from '../../context/context-planner.js';
import { ConversationBusyError, ConversationNotFoundError, InvalidInputError, LimitReachedError } from '../../conversations/conversation.errors.js';
import { ConversationsService } from '../../conversations/conversations.service.js';
import { sendText, whileTyping } from './replies.js';
import { actorOfChat, promptText } from './routing.js';
import { TELEGRAM_CONFIG } from './telegram.tokens.js';
import type { TelegramConfig } from '../../config/app-config.js';
import { TEXTS } from './texts.js';

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
    let reply: string;
    try {
      reply = await whileTyping(ctx, async () => {
        const current = await this.conversations.mostRecent(actor);
        const result = await this.chat.send(actor, { message: text, ...(current ? { conversationId: current.id } : {}) });
        // A cut reply says so, or the user would take the text for the whole answer.
        const cut = result.reason && (result.reason.code === 'reply_too_long' ? TEXTS.cutTooLong : TEXTS.cutTimeout);
        return cut ? `${result.reply}\n\n${cut}` : result.reply;
      });
    } catch (error) {
      return sendText(ctx, this.explain(error));
    }
    // A model may stop with no text at all (a cancelled reply); Telegram refuses empty messages.
    await sendText(ctx, reply.trim() ? reply : '…');
  }

  /** What the user is told when a turn does not produce a reply. */
  private explain(error: unknown): string {
    if (error instanceof ChatTurnFailedError) {
      // No content in the log: the ids are enough to find the turn.
      this.logger.warn(`Model failure (${error.status}) in conversation ${error.conversationId}`);
      return TEXTS.apology;
    }
    if (error instanceof ConversationBusyError) return TEXTS.busy;
    if (error instanceof InvalidInputError || error instanceof LimitReachedError) return `Sorry: ${error.message}.`;
    if (error instanceof ContextOverBudgetError) return `Sorry, that message is too long for me: ${error.message}.`;
    // The current conversation was deleted between finding it and using it (another instance).
    if (error instanceof ConversationNotFoundError) return TEXTS.failure;
    this.logger.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    return TEXTS.failure;
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { AgentsService } from '../../agents/agents.service.js';
import type { TelegramConfig } from '../../config/telegram-config.js';
import { InlineKeyboard, type Bot, type Context } from 'grammy';
import { ConversationNotFoundError, ForbiddenConversationError } from '../../conversations/conversation.errors.js';
import { ConversationsService } from '../../conversations/conversations.service.js';
import type { Message } from '../../conversations/message.entity.js';
import { MemoryService } from '../../memory/memory.service.js';
import { sendText } from './replies.js';
import { actorOfChat } from './routing.js';
import { TelegramShareCommands } from './telegram-share-commands.js';
import { TELEGRAM_CONFIG } from './telegram.tokens.js';
import { helpText, TEXTS } from './texts.js';

/** How many conversations /list shows, and how far back /use N may reach. */
const LIST_SIZE = 10;
const USE_MAX = 100;
/** /history shows this many messages, each cut to a readable length. */
const HISTORY_SIZE = 10;
const HISTORY_CLIP = 500;
/** /memory lists this many memories, /forget N reaches as far. */
const MEMORY_LIST_SIZE = 20;

/**
 * Callback data of the /delete buttons: the conversation and the user who asked (only they
 * may answer, which matters in groups). At most 4 + 36 + 1 + 16 bytes, under Telegram's 64.
 */
const DELETE_DATA = /^del:([0-9a-f-]{36}):(\d+)$/;
const KEEP_DATA = /^keep:(\d+)$/;

/** The commands that manage a chat's conversations; /help lists them (BOT_COMMANDS). */
@Injectable()
export class TelegramCommands {
  constructor(
    private readonly conversations: ConversationsService,
    private readonly agents: AgentsService,
    private readonly memories: MemoryService,
    private readonly shares: TelegramShareCommands,
    @Inject(TELEGRAM_CONFIG) private readonly config: TelegramConfig,
  ) {}

  install(bot: Bot): void {
    bot.command('start', (ctx) => sendText(ctx, `${TEXTS.welcome}\n\n${helpText(inGroup(ctx))}`));
    bot.command('help', (ctx) => sendText(ctx, helpText(inGroup(ctx))));
    bot.command('new', (ctx) => this.startNew(ctx));
    bot.command('list', (ctx) => this.list(ctx));
    bot.command('use', (ctx) => this.use(ctx, ctx.match));
    bot.command('history', (ctx) => this.history(ctx));
    bot.command('delete', (ctx) => this.askDelete(ctx));
    bot.command('agent', (ctx) => this.agent(ctx, ctx.match));
    bot.command('memory', (ctx) => this.memory(ctx));
    bot.command('forget', (ctx) => this.forget(ctx, ctx.match));
    this.shares.install(bot);
    bot.callbackQuery(DELETE_DATA, (ctx) => this.confirmDelete(ctx, ctx.match[1], Number(ctx.match[2])));
    bot.callbackQuery(KEEP_DATA, async (ctx) => {
      if (Number(ctx.match[1]) !== ctx.from.id)
        return void (await ctx.answerCallbackQuery({ text: TEXTS.notYourButton }));
      await ctx.editMessageText(TEXTS.kept);
      await ctx.answerCallbackQuery();
    });
    // A button from an older version of the bot: stop the client's spinner.
    bot.on('callback_query', (ctx) => ctx.answerCallbackQuery());
  }

  /**
   * /agent lists the agents the operator offers (TELEGRAM_AGENTS_FROM); /agent N starts a
   * conversation with agent N, /agent none one without an agent. The new conversation is the
   * current one, so the next message talks to that agent; /use goes back to older ones.
   */
  private async agent(ctx: Context, argument: string): Promise<void> {
    const actor = this.actorOf(ctx);
    const offered = await this.agents.listOffered(actor);
    const choice = argument.trim().toLowerCase();
    if (!choice) {
      const current = await this.conversations.mostRecent(actor);
      const using = offered.find((a) => a.id === current?.agentId);
      if (offered.length === 0) return sendText(ctx, TEXTS.noAgents);
      const lines = offered.map(
        (a, i) =>
          `${i + 1}. ${[a.emoji, a.name].filter(Boolean).join(' ')}${a.description ? ` – ${a.description}` : ''}`,
      );
      const now = using ? `You are talking with ${using.name}.` : 'You are talking without an agent.';
      return sendText(
        ctx,
        `${now}\n\n${lines.join('\n')}\n\n/agent N starts a conversation with agent N; /agent none without one.`,
      );
    }
    if (choice === 'none') {
      await this.conversations.create(actor);
      return sendText(ctx, 'Started a new conversation without an agent. Your next message is its first.');
    }
    const n = /^\d+$/.test(choice) ? Number(choice) : 0;
    const picked = offered[n - 1];
    if (!picked)
      return sendText(
        ctx,
        offered.length ? `Send /agent N with N from 1 to ${offered.length}, or /agent none.` : TEXTS.noAgents,
      );
    await this.conversations.create(actor, { agentId: picked.id });
    await sendText(ctx, `Started a new conversation with ${picked.name}. Your next message is its first.`);
  }

  /** /memory lists the long-term memories, newest first, numbered for /forget N. */
  private async memory(ctx: Context): Promise<void> {
    const { items } = await this.memories.list(actorOf(ctx), { limit: MEMORY_LIST_SIZE });
    if (items.length === 0) return sendText(ctx, TEXTS.noMemories);
    const lines = items.map((m, i) => `${i + 1}. ${m.pinned ? '📌 ' : ''}${m.text}`);
    await sendText(
      ctx,
      `What I remember about you (newest first):\n\n${lines.join('\n')}\n\n/forget N forgets memory N.`,
    );
  }

  private async forget(ctx: Context, argument: string): Promise<void> {
    const n = /^\d+$/.test(argument.trim()) ? Number(argument.trim()) : 0;
    if (n < 1 || n > MEMORY_LIST_SIZE)
      return sendText(ctx, `Send /forget N with N from /memory (1 to ${MEMORY_LIST_SIZE}).`);
    const actor = actorOf(ctx);
    const chosen = (await this.memories.list(actor, { limit: n })).items[n - 1];
    if (!chosen) return sendText(ctx, `There is no memory ${n}. /memory shows them.`);
    await this.memories.delete(actor, chosen.id);
    await sendText(ctx, `Forgotten: “${chosen.text}”.`);
  }

  private actorOf(ctx: Context) {
    return actorOfChat(ctx.chat!, ctx.from!.id, this.config.agentsFrom);
  }

  private async startNew(ctx: Context): Promise<void> {
    await this.conversations.create(actorOf(ctx));
    await sendText(ctx, TEXTS.newConversation);
  }

  private async list(ctx: Context): Promise<void> {
    const { items } = await this.conversations.list(actorOf(ctx), LIST_SIZE);
    if (items.length === 0) return sendText(ctx, TEXTS.noConversations);
    const lines = items.map((c, i) => `${i + 1}. ${c.title}`);
    await sendText(
      ctx,
      `Recent conversations (1 is the current one):\n\n${lines.join('\n')}\n\n/use N continues conversation N.`,
    );
  }

  private async use(ctx: Context, argument: string): Promise<void> {
    const n = /^\d+$/.test(argument.trim()) ? Number(argument.trim()) : 0;
    if (n < 1 || n > USE_MAX) return sendText(ctx, TEXTS.useUsage);
    const actor = actorOf(ctx);
    const chosen = (await this.conversations.list(actor, n)).items[n - 1];
    if (!chosen) return sendText(ctx, `There is no conversation ${n}. /list shows yours.`);
    // Touching makes it the most recent, which is what "current" means.
    await this.conversations.touch(actor, chosen.id);
    await sendText(ctx, `Now continuing “${chosen.title}”. /history shows where you left off.`);
  }

  private async history(ctx: Context): Promise<void> {
    const actor = actorOf(ctx);
    const current = await this.conversations.mostRecent(actor);
    if (!current) return sendText(ctx, TEXTS.noCurrent);
    const messages = await this.conversations.messagesPage(actor, current.id, { limit: HISTORY_SIZE });
    if (messages.length === 0) return sendText(ctx, TEXTS.emptyHistory);
    const lines = messages.map(historyLine);
    await sendText(ctx, `“${current.title}”, last ${messages.length} messages:\n\n${lines.join('\n\n')}`);
  }

  private async askDelete(ctx: Context): Promise<void> {
    const current = await this.conversations.mostRecent(actorOf(ctx));
    if (!current) return sendText(ctx, TEXTS.noCurrent);
    const userId = ctx.from!.id;
    const keyboard = new InlineKeyboard().text('Delete', `del:${current.id}:${userId}`).text('Keep', `keep:${userId}`);
    await sendText(ctx, `Delete “${current.title}” and all its messages? This cannot be undone.`, keyboard);
  }

  private async confirmDelete(ctx: Context, conversationId: string, askedBy: number): Promise<void> {
    if (askedBy !== ctx.from!.id) return void (await ctx.answerCallbackQuery({ text: TEXTS.notYourButton }));
    const actor = actorOf(ctx);
    try {
      await this.conversations.delete(actor, conversationId);
    } catch (error) {
      if (!(error instanceof ConversationNotFoundError || error instanceof ForbiddenConversationError)) throw error;
      await ctx.editMessageText(TEXTS.alreadyGone);
      return void (await ctx.answerCallbackQuery());
    }
    const next = await this.conversations.mostRecent(actor);
    const after = next ? `Your messages now continue “${next.title}”.` : 'Your next message starts a new conversation.';
    await ctx.editMessageText(`Deleted. ${after}`);
    await ctx.answerCallbackQuery();
  }
}

function actorOf(ctx: Context) {
  return actorOfChat(ctx.chat!, ctx.from!.id);
}

function inGroup(ctx: Context): boolean {
  return ctx.chat?.type !== 'private';
}

function historyLine(message: Message): string {
  const who = message.role === 'user' ? 'You' : 'Bot';
  // Code points, so an emoji is never cut in half.
  const chars = Array.from(message.content);
  const text = chars.length > HISTORY_CLIP ? `${chars.slice(0, HISTORY_CLIP).join('')}…` : message.content;
  if (message.status === 'failed') return `${who}: (no answer: the model failed)`;
  if (message.status === 'streaming') return `${who}: (still being written)`;
  const note = message.status === 'cancelled' ? ' (stopped)' : message.status === 'truncated' ? ' (cut short)' : '';
  return `${who}: ${text}${note}`;
}

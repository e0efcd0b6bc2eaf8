import type { Context } from 'grammy';
import type { InlineKeyboardMarkup } from 'grammy/types';
import { splitMessage } from './split-message.js';

/** How often "typing" is sent again: Telegram shows it for about 5 seconds. */
const TYPING_EVERY_MS = 4_000;

/**
 * Sends `text` to the chat of the update, cut into parts Telegram accepts. In a group the
 * first part replies to the message that asked, so members see whom it answers; in a forum
 * topic every part stays in the topic. Plain text: a model's Markdown is not always valid
 * Telegram markup, and a rejected message would lose the reply.
 */
export async function sendText(ctx: Context, text: string, keyboard?: InlineKeyboardMarkup): Promise<void> {
  const chatId = ctx.chat?.id;
  if (chatId === undefined) return;
  const parts = splitMessage(text);
  for (const [index, part] of parts.entries()) {
    const last = index === parts.length - 1;
    await ctx.api.sendMessage(chatId, part, {
      ...inThread(ctx),
      ...(index === 0 ? quoting(ctx) : {}),
      ...(last && keyboard ? { reply_markup: keyboard } : {}),
    });
  }
}

/** Shows "typing" in the chat until `work` settles. */
export async function whileTyping<T>(ctx: Context, work: () => Promise<T>): Promise<T> {
  const chatId = ctx.chat?.id;
  if (chatId === undefined) return work();
  // Best effort: a lost chat action must never fail the turn.
  const typing = () => void ctx.api.sendChatAction(chatId, 'typing', inThread(ctx)).catch(() => undefined);
  typing();
  const timer = setInterval(typing, TYPING_EVERY_MS);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}

function inThread(ctx: Context): { message_thread_id?: number } {
  const message = ctx.msg;
  return message?.is_topic_message && message.message_thread_id ? { message_thread_id: message.message_thread_id } : {};
}

function quoting(ctx: Context): { reply_parameters?: { message_id: number; allow_sending_without_reply: boolean } } {
  const message = ctx.message;
  if (!message || message.chat.type === 'private') return {};
  return { reply_parameters: { message_id: message.message_id, allow_sending_without_reply: true } };
}

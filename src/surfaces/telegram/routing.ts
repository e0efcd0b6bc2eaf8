import type { Chat, Message, Update, UserFromGetMe } from 'grammy/types';
import { telegramActor, type Actor } from '../../actor-auth/actor.js';

/** The updates the bot asks Telegram for (getUpdates and setWebhook). */
export const ALLOWED_UPDATES = ['message', 'callback_query'] as const;

/** What to do with an update, decided before anything of it is stored. */
export type Routing =
  /** Not for the bot (a group message that does not address it, an edit, a channel post...). */
  | { readonly kind: 'ignore' }
  /** From a user outside TELEGRAM_ALLOWED_USERS: a short refusal, nothing stored. */
  | { readonly kind: 'refuse'; readonly chatId: number; readonly userId: number; readonly callbackQueryId?: string }
  /** Handled in the order of its chat. */
  | { readonly kind: 'handle'; readonly chatId: number };

/**
 * Decides whether an update concerns the bot. In private chats every message does; in groups
 * only a message that mentions the bot, replies to one of its messages, or is a command
 * (`/help`, `/help@thisbot`, not `/help@otherbot`). Callback queries come from the bot's own
 * buttons.
 */
export function routeUpdate(update: Update, me: UserFromGetMe, allowedUsers: ReadonlySet<number> | null): Routing {
  const allowed = (userId: number) => !allowedUsers || allowedUsers.has(userId);
  const query = update.callback_query;
  if (query) {
    const chatId = query.message?.chat.id ?? query.from.id;
    return allowed(query.from.id)
      ? { kind: 'handle', chatId }
      : { kind: 'refuse', chatId, userId: query.from.id, callbackQueryId: query.id };
  }
  const message = update.message;
  // Channel posts come as channel_post updates, never asked for; `from` is absent there anyway.
  if (!message?.from || message.from.is_bot) return { kind: 'ignore' };
  if (message.chat.type !== 'private' && !addressesBot(message, me)) return { kind: 'ignore' };
  const chatId = message.chat.id;
  return allowed(message.from.id) ? { kind: 'handle', chatId } : { kind: 'refuse', chatId, userId: message.from.id };
}

/** Whether a group message is meant for the bot. */
function addressesBot(message: Message, me: UserFromGetMe): boolean {
  if (message.reply_to_message?.from?.id === me.id) return true;
  const text = message.text ?? message.caption ?? '';
  const entities = message.entities ?? message.caption_entities ?? [];
  const handle = `@${me.username}`.toLowerCase();
  return entities.some((entity) => {
    const value = text.slice(entity.offset, entity.offset + entity.length).toLowerCase();
    if (entity.type === 'mention') return value === handle;
    if (entity.type === 'text_mention') return entity.user.id === me.id;
    if (entity.type === 'bot_command' && entity.offset === 0) {
      const at = value.indexOf('@');
      return at < 0 || value.slice(at) === handle;
    }
    return false;
  });
}

/**
 * Who owns the conversations of a chat. A private chat: its user (`telegram:<userId>`), so
 * the same memory follows them. A group: the group itself (`telegram:group:<chatId>`), one
 * memory shared by its members, and a member's private conversations never show there.
 */
export function actorOfChat(chat: Pick<Chat, 'id' | 'type'>, userId: number, agentsFrom: string | null = null): Actor {
  const id = chat.type === 'private' ? telegramActor(userId).id : `telegram:group:${chat.id}`;
  // The operator's agents (TELEGRAM_AGENTS_FROM) are offered to every chat.
  return agentsFrom ? { id, agentPublishers: [agentsFrom] } : { id };
}

/**
 * The text handed to the chat service. In a group the bot's @mention is taken out and the
 * sender's first name put in front, since several people talk in one conversation there.
 * Empty when nothing but the mention was sent.
 */
export function promptText(message: Message, me: UserFromGetMe): string {
  const text = message.text ?? '';
  if (message.chat.type === 'private') return text;
  const handle = new RegExp(`@${me.username}\\b`, 'gi');
  const cleaned = text
    .replace(handle, '')
    .replace(/[ \t]{2,}/g, ' ')
    .trim();
  if (!cleaned) return '';
  const name = message.from?.first_name?.trim() || 'Someone';
  return `${name}: ${cleaned}`;
}

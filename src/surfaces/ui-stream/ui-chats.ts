import { Injectable } from '@nestjs/common';
import type { Actor } from '../../actor-auth/actor.js';
import { ConversationAliases } from '../../conversations/conversation-aliases.service.js';
import { ConversationsService } from '../../conversations/conversations.service.js';
import type { UIMessage } from 'ai';
import type { FunctionCallRecord, Message } from '../../conversations/message.entity.js';
import { MAIN_THREAD } from '../../conversations/thread.entity.js';
import { toUiMessages } from './ui-messages.js';

/** How many messages a resume reads back for the tool round a reply in progress goes on from. */
const ROUND_READ = 50;

/** A reply being generated, found from a client's chat id. */
interface ReplyInProgress {
  readonly conversationId: string;
  readonly thread: string;
  readonly reply: Message;
}

/**
 * The AI SDK's chats as our conversations: a chat id is one of the actor's conversation ids or
 * a name of its own; an id no conversation of the actor answers to is a chat not started yet.
 */
@Injectable()
export class UiChats {
  constructor(
    private readonly aliases: ConversationAliases,
    private readonly conversations: ConversationsService,
  ) {}

  conversationOf(actor: Actor, chatId: string): Promise<string | null> {
    return this.aliases.resolve(actor, chatId);
  }

  /**
   * The UI message a reply in progress belongs to when it goes on after tool outputs (the reply
   * that called, the outputs, then it); null when the reply is a UI message of its own.
   */
  async roundOf(actor: Actor, chatId: string, live: ReplyInProgress): Promise<UIMessage | null> {
    const last = (await this.uiMessages(actor, chatId, live.thread, ROUND_READ)).at(-1);
    return last && last.id !== live.reply.id ? last : null;
  }

  /** The client tool calls the thread's last reply made and waits on (none when the leaf is anything else). */
  async pendingCalls(
    actor: Actor,
    conversationId: string,
    thread = MAIN_THREAD,
  ): Promise<{ replyId: string; calls: FunctionCallRecord[] }> {
    const [leaf] = await this.conversations.messagesPage(actor, conversationId, { limit: 1, thread });
    return leaf?.role === 'assistant' && leaf.status === 'complete'
      ? { replyId: leaf.id, calls: leaf.functionCalls ?? [] }
      : { replyId: '', calls: [] };
  }

  /** The message of the chat's conversation the client calls `name`: its own id for a message it sent, or ours. */
  messageOf(actor: Actor, conversationId: string, name: string): Promise<string> {
    return this.aliases.resolveMessage(actor, conversationId, name);
  }

  /** The newest messages of the thread's active path as UIMessages, oldest first, under the ids the client gave those it sent. */
  async uiMessages(actor: Actor, chatId: string, thread: string | undefined, limit: number): Promise<UIMessage[]> {
    const messages = await this.messages(actor, chatId, thread, limit);
    if (messages.length === 0) return [];
    const names = await this.aliases.messageNames(
      actor,
      messages[0].conversationId,
      messages.filter((m) => m.role === 'user').map((m) => m.id),
    );
    return toUiMessages(messages, names);
  }

  /** The newest messages of the thread's active path, oldest first; a reply whose generator died is shown closed. */
  async messages(actor: Actor, chatId: string, thread: string | undefined, limit: number): Promise<Message[]> {
    const conversationId = await this.conversationOf(actor, chatId);
    if (!conversationId) return [];
    const messages = await this.conversations.messagesPage(actor, conversationId, {
      limit,
      thread: thread ?? MAIN_THREAD,
    });
    const last = messages.at(-1);
    if (last?.status === 'streaming')
      messages[messages.length - 1] = await this.conversations.getMessage(actor, conversationId, last.id);
    return messages;
  }

  /** The reply being generated at the end of the thread's active path, if any (on whichever instance). */
  async replyInProgress(actor: Actor, chatId: string, thread = MAIN_THREAD): Promise<ReplyInProgress | null> {
    const conversationId = await this.conversationOf(actor, chatId);
    if (!conversationId) return null;
    const [leaf] = await this.conversations.messagesPage(actor, conversationId, { limit: 1, thread });
    if (leaf?.status !== 'streaming') return null;
    // Read again alone: a reply whose generator died is closed by this read.
    const reply = await this.conversations.getMessage(actor, conversationId, leaf.id);
    return reply.status === 'streaming' ? { conversationId, thread, reply } : null;
  }
}

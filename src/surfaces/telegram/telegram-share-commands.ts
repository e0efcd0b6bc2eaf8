import { Injectable } from '@nestjs/common';
import type { Bot, Context } from 'grammy';
import { InvalidInputError } from '../../conversations/conversation.errors.js';
import { ConversationsService } from '../../conversations/conversations.service.js';
import { SharingService } from '../../sharing/sharing.service.js';
import { sendText } from './replies.js';
import { actorOfChat } from './routing.js';
import { TEXTS } from './texts.js';

/** /share and /unshare: read-only links to the current conversation (docs/sharing.md). */
@Injectable()
export class TelegramShareCommands {
  constructor(
    private readonly conversations: ConversationsService,
    private readonly sharing: SharingService,
  ) {}

  install(bot: Bot): void {
    bot.command('share', (ctx) => this.share(ctx));
    bot.command('unshare', (ctx) => this.unshare(ctx));
  }

  /** A new share of the current conversation as it is now; its link is the answer. */
  private async share(ctx: Context): Promise<void> {
    const actor = actorOfChat(ctx.chat!, ctx.from!.id);
    const current = await this.conversations.mostRecent(actor);
    if (!current) return sendText(ctx, TEXTS.noCurrent);
    let url: string;
    try {
      ({ url } = await this.sharing.create(actor, current.id));
    } catch (error) {
      if (error instanceof InvalidInputError) return sendText(ctx, TEXTS.emptyHistory);
      throw error;
    }
    // Without PUBLIC_BASE_URL the service does not know its own address: the path is what there is.
    const where = /^https?:\/\//.test(url) ? url : `${url}\n(Open this path on the chat service's address.)`;
    await sendText(
      ctx,
      `Anyone with this link can read “${current.title}” as it is now (later messages are not shown):\n${where}\n\n/unshare revokes the links of this conversation.`,
    );
  }

  private async unshare(ctx: Context): Promise<void> {
    const actor = actorOfChat(ctx.chat!, ctx.from!.id);
    const current = await this.conversations.mostRecent(actor);
    if (!current) return sendText(ctx, TEXTS.noCurrent);
    const revoked = await this.sharing.revokeAll(actor, current.id);
    await sendText(
      ctx,
      revoked === 0
        ? 'This conversation has no links.'
        : `Revoked ${revoked} link${revoked === 1 ? '' : 's'}: they no longer open.`,
    );
  }
}

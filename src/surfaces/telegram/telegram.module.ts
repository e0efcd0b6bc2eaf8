import { MemoryModule } from '../../memory/memory.module.js';
import { Module } from '@nestjs/common';
import { ChatModule } from '../../chat/chat.module.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { ConversationsModule } from '../../conversations/conversations.module.js';
import { TelegramInboxModule } from '../../telegram-inbox/telegram-inbox.module.js';
import { createBot } from './bot.js';
import { TelegramChat } from './telegram-chat.js';
import { TelegramCommands } from './telegram-commands.js';
import { TelegramIntake } from './telegram-intake.js';
import { TelegramSurface } from './telegram-surface.js';
import { TelegramWebhook } from './telegram-webhook.js';
import { TELEGRAM_BOT, TELEGRAM_CONFIG } from './telegram.tokens.js';
import { AgentsModule } from '../../agents/agents.module.js';
import { SharingModule } from '../../sharing/sharing.module.js';
import { TelegramShareCommands } from './telegram-share-commands.js';

/**
 * The Telegram surface: a grammY bot on the same chat and conversation services as the REST
 * API. Loaded only when TELEGRAM_BOT_TOKEN is set (AppModule); the domain knows nothing of it.
 */
@Module({
  imports: [ChatModule, ConversationsModule, TelegramInboxModule, AgentsModule, MemoryModule, SharingModule],
  providers: [
    { provide: TELEGRAM_CONFIG, inject: [APP_CONFIG], useFactory: (config: AppConfig) => config.telegram },
    { provide: TELEGRAM_BOT, inject: [TELEGRAM_CONFIG], useFactory: createBot },
    TelegramIntake,
    TelegramCommands,
    TelegramShareCommands,
    TelegramChat,
    TelegramSurface,
    TelegramWebhook,
  ],
})
export class TelegramSurfaceModule {}

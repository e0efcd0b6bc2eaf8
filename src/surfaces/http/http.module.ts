import { Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { ChatModule } from '../../chat/chat.module.js';
import { ConversationsModule } from '../../conversations/conversations.module.js';
import { AgentsModule } from '../../agents/agents.module.js';
import { UsageModule } from '../../usage/usage.module.js';
import { AgentsController } from './controllers/agents.controller.js';
import { UsageController } from './controllers/usage.controller.js';
import { ChatController } from './controllers/chat.controller.js';
import { ConversationStateController } from './controllers/conversation-state.controller.js';
import { ConversationsController } from './controllers/conversations.controller.js';
import { HealthController } from './controllers/health.controller.js';
import { MessagesController } from './controllers/messages.controller.js';
import { HttpErrorFilter } from './errors/http-error.filter.js';
import { HttpDrain } from './http-drain.js';
import { IdempotentChat } from './idempotency/idempotent-chat.js';
import { IdempotencyModule } from '../../idempotency/idempotency.module.js';

/** The REST surface: routes, DTOs and the mapping of domain errors to HTTP answers. */
@Module({
  imports: [ChatModule, ConversationsModule, AgentsModule, IdempotencyModule, UsageModule],
  controllers: [ChatController, ConversationsController, ConversationStateController, MessagesController, AgentsController, UsageController, HealthController],
  providers: [{ provide: APP_FILTER, useClass: HttpErrorFilter }, HttpDrain, IdempotentChat],
})
export class HttpSurfaceModule {}

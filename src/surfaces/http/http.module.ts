import { Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import { ReadYourWritesInterceptor } from './read-your-writes.interceptor.js';
import { RateLimitGuard } from './hardening/rate-limit.guard.js';
import { ChatModule } from '../../chat/chat.module.js';
import { ConversationsModule } from '../../conversations/conversations.module.js';
import { AgentsModule } from '../../agents/agents.module.js';
import { UsageModule } from '../../usage/usage.module.js';
import { AgentsController } from './controllers/agents.controller.js';
import { UsageController } from './controllers/usage.controller.js';
import { ChatController } from './controllers/chat.controller.js';
import { ConversationStateController } from './controllers/conversation-state.controller.js';
import { ConversationsController } from './controllers/conversations.controller.js';
import { SettingsController } from './controllers/settings.controller.js';
import { HealthController } from './controllers/health.controller.js';
import { MeController } from './controllers/me.controller.js';
import { MetricsController } from './controllers/metrics.controller.js';
import { BranchesController } from './controllers/branches.controller.js';
import { MessagesController } from './controllers/messages.controller.js';
import { PortabilityController } from './controllers/portability.controller.js';
import { ArchiveImportsController } from './controllers/archive-imports.controller.js';
import { HttpErrorFilter } from '../errors/http-error.filter.js';
import { HttpDrain } from './http-drain.js';
import { IdempotentChat } from './idempotency/idempotent-chat.js';
import { IdempotencyModule } from '../../idempotency/idempotency.module.js';
import { PortabilityModule } from '../../portability/portability.module.js';
import { StreamingModule } from '../streaming/streaming.module.js';
import { MemoryModule } from '../../memory/memory.module.js';
import { MemoriesController } from './controllers/memories.controller.js';
import { SharingModule } from '../../sharing/sharing.module.js';
import { SharesController } from './controllers/shares.controller.js';
import { SharedController } from './controllers/shared.controller.js';
import { SharedReadLimit } from './hardening/shared-read-limit.guard.js';
import { RecallModule } from '../../recall/recall.module.js';
import { LlmModule } from '../../llm/llm.module.js';
import { ModelsController } from './controllers/models.controller.js';
import { SearchController } from './controllers/search.controller.js';

/**
 * The REST surface: routes and DTOs. It also installs what every HTTP surface's routes pass
 * through: the error filter (surfaces/errors/), the rate limit and the read-your-writes interceptor.
 */
@Module({
  imports: [
    ChatModule,
    ConversationsModule,
    AgentsModule,
    IdempotencyModule,
    UsageModule,
    PortabilityModule,
    MemoryModule,
    SharingModule,
    RecallModule,
    LlmModule,
    StreamingModule,
  ],
  controllers: [
    ChatController,
    PortabilityController,
    ArchiveImportsController,
    ConversationsController,
    ConversationStateController,
    MessagesController,
    BranchesController,
    AgentsController,
    UsageController,
    MeController,
    HealthController,
    MetricsController,
    MemoriesController,
    SharesController,
    SharedController,
    SearchController,
    ModelsController,
    SettingsController,
  ],
  providers: [
    { provide: APP_FILTER, useClass: HttpErrorFilter },
    { provide: APP_GUARD, useClass: RateLimitGuard },
    { provide: APP_INTERCEPTOR, useClass: ReadYourWritesInterceptor },
    HttpDrain,
    IdempotentChat,
    SharedReadLimit,
  ],
})
export class HttpSurfaceModule {}

import { Module, type DynamicModule } from '@nestjs/common';
import { ActorAuthModule } from './actor-auth/actor-auth.module.js';
import type { AppConfig } from './config/app-config.js';
import { ConfigModule } from './config/config.module.js';
import { DatabaseModule } from './database/database.module.js';
import { ENTITIES } from './entities.js';
import { MetricsModule } from './metrics/metrics.module.js';
import { RateLimitsModule } from './rate-limits/rate-limits.module.js';
import { RetentionModule } from './retention/retention.module.js';
import { HttpSurfaceModule } from './surfaces/http/http.module.js';
import { OpenAiSurfaceModule } from './surfaces/openai/openai.module.js';
import { McpSurfaceModule } from './surfaces/mcp/mcp.module.js';
import { TelegramSurfaceModule } from './surfaces/telegram/telegram.module.js';
import { UiStreamSurfaceModule } from './surfaces/ui-stream/ui-stream.module.js';
import { WebSurfaceModule } from './surfaces/web/web.module.js';

/** Wires the domains and the surfaces enabled by configuration. */
@Module({})
export class AppModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        MetricsModule,
        DatabaseModule.forRoot(config, ENTITIES, config.readReplicas),
        RateLimitsModule,
        ActorAuthModule,
        RetentionModule,
        HttpSurfaceModule,
        McpSurfaceModule,
        UiStreamSurfaceModule,
        OpenAiSurfaceModule,
        WebSurfaceModule,
        ...(config.telegram ? [TelegramSurfaceModule] : []),
      ],
    };
  }
}

import { Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { ActorGuard } from './actor.guard.js';
import { ApiKeyAuthenticator } from './api-key-authenticator.js';

/** Who is calling: API keys for HTTP, and the global guard that denies by default. */
@Global()
@Module({
  providers: [
    { provide: ApiKeyAuthenticator, inject: [APP_CONFIG], useFactory: (c: AppConfig) => new ApiKeyAuthenticator(c.apiKeys) },
    { provide: APP_GUARD, useClass: ActorGuard },
  ],
  exports: [ApiKeyAuthenticator],
})
export class ActorAuthModule {}

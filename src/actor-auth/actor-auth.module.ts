import { Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ActorGuard } from './actor.guard.js';
import { ApiKeyAuthenticator } from './api-key-authenticator.js';
import { ApiKeysService } from './api-keys.service.js';
import { AuthFailureLimit } from './auth-failure-limit.js';
import { RequestAuthenticator } from './request-authenticator.js';
import { OAuthModule } from '../oauth/oauth.module.js';

/** Who is calling: API keys for HTTP, and the global guard that denies by default. */
@Global()
@Module({
  imports: [OAuthModule],
  providers: [
    ApiKeysService,
    ApiKeyAuthenticator,
    AuthFailureLimit,
    RequestAuthenticator,
    { provide: APP_GUARD, useClass: ActorGuard },
  ],
  exports: [ApiKeyAuthenticator, ApiKeysService, RequestAuthenticator],
})
export class ActorAuthModule {}

import { Module } from '@nestjs/common';
import { OAuthClientsRepository } from './oauth-clients.repository.js';
import { OAuthGrantsRepository } from './oauth-grants.repository.js';
import { OAuthTokensRepository } from './oauth-tokens.repository.js';
import { OAuthService } from './oauth.service.js';

/** The authorization server behind MCP hosts' connections: clients, grants, tokens. */
@Module({
  providers: [OAuthClientsRepository, OAuthGrantsRepository, OAuthTokensRepository, OAuthService],
  exports: [OAuthService],
})
export class OAuthModule {}

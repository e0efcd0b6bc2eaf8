import { Module } from '@nestjs/common';
import { AgentsModule } from '../../agents/agents.module.js';
import { ConversationsModule } from '../../conversations/conversations.module.js';
import { RecallModule } from '../../recall/recall.module.js';
import { McpController } from './mcp.controller.js';
import { OAuthModule } from '../../oauth/oauth.module.js';
import { OAuthConsentController } from './oauth/oauth-consent.controller.js';

/** The Model Context Protocol surface: a user's history as tools for agents and desktop clients. */
@Module({
  imports: [ConversationsModule, AgentsModule, RecallModule, OAuthModule],
  controllers: [McpController, OAuthConsentController],
})
export class McpSurfaceModule {}

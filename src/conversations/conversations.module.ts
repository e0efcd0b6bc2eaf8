import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module.js';
import { ConversationLimits } from './conversation-limits.js';
import { ConversationSearchRepository } from './conversation-search.repository.js';
import { ConversationsRepository } from './conversations.repository.js';
import { ConversationsService } from './conversations.service.js';
import { MessageUsageRepository } from './message-usage.repository.js';
import { PortabilityRepository } from './portability.repository.js';
import { PortabilityService } from './portability.service.js';
import { StaleConversationsRepository } from './stale-conversations.repository.js';
import { SummariesService } from './summaries.service.js';

@Module({
  imports: [AgentsModule],
  providers: [ConversationsRepository, ConversationSearchRepository, ConversationLimits, ConversationsService, SummariesService, PortabilityRepository, PortabilityService, MessageUsageRepository, StaleConversationsRepository],
  exports: [ConversationsRepository, ConversationLimits, ConversationsService, SummariesService, PortabilityService, MessageUsageRepository, StaleConversationsRepository],
})
export class ConversationsModule {}

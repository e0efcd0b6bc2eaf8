import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module.js';
import { ConversationLimits } from './conversation-limits.js';
import { ConversationSearchRepository } from './conversation-search.repository.js';
import { ConversationsRepository } from './conversations.repository.js';
import { ConversationsService } from './conversations.service.js';
import { MessageUsageRepository } from './message-usage.repository.js';
import { StaleConversationsRepository } from './stale-conversations.repository.js';
import { SummariesService } from './summaries.service.js';
import { WholeConversationsRepository } from './whole-conversations.repository.js';

@Module({
  imports: [AgentsModule],
  providers: [ConversationsRepository, ConversationSearchRepository, ConversationLimits, ConversationsService, SummariesService, WholeConversationsRepository, MessageUsageRepository, StaleConversationsRepository],
  exports: [ConversationsRepository, ConversationLimits, ConversationsService, SummariesService, WholeConversationsRepository, MessageUsageRepository, StaleConversationsRepository],
})
export class ConversationsModule {}

import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module.js';
import { ConversationLimits } from './conversation-limits.js';
import { ConversationSearchRepository } from './conversation-search.repository.js';
import { ConversationsRepository } from './conversations.repository.js';
import { ConversationsService } from './conversations.service.js';
import { PortabilityRepository } from './portability.repository.js';
import { PortabilityService } from './portability.service.js';
import { SummariesService } from './summaries.service.js';

@Module({
  imports: [AgentsModule],
  providers: [ConversationsRepository, ConversationSearchRepository, ConversationLimits, ConversationsService, SummariesService, PortabilityRepository, PortabilityService],
  exports: [ConversationsRepository, ConversationLimits, ConversationsService, SummariesService, PortabilityService],
})
export class ConversationsModule {}

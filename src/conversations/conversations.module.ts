import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module.js';
import { ContextModule } from '../context/context.module.js';
import { ConversationLimits } from './conversation-limits.js';
import { ConversationSearchRepository } from './conversation-search.repository.js';
import { ConversationsRepository } from './conversations.repository.js';
import { ConversationsService } from './conversations.service.js';
import { PortabilityRepository } from './portability.repository.js';
import { PortabilityService } from './portability.service.js';
import { SummariesService } from './summaries.service.js';
import { TurnsService } from './turns.service.js';

@Module({
  imports: [AgentsModule, ContextModule],
  providers: [ConversationsRepository, ConversationSearchRepository, ConversationLimits, ConversationsService, TurnsService, SummariesService, PortabilityRepository, PortabilityService],
  exports: [ConversationLimits, ConversationsService, TurnsService, SummariesService, PortabilityService],
})
export class ConversationsModule {}

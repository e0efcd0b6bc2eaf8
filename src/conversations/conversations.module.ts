import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module.js';
import { ContextModule } from '../context/context.module.js';
import { ConversationSearchRepository } from './conversation-search.repository.js';
import { ConversationsRepository } from './conversations.repository.js';
import { ConversationsService } from './conversations.service.js';
import { SummariesService } from './summaries.service.js';
import { TurnsService } from './turns.service.js';

@Module({
  imports: [AgentsModule, ContextModule],
  providers: [ConversationsRepository, ConversationSearchRepository, ConversationsService, TurnsService, SummariesService],
  exports: [ConversationsService, TurnsService, SummariesService],
})
export class ConversationsModule {}

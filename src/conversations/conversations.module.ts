import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module.js';
import { ConversationsRepository } from './conversations.repository.js';
import { ConversationsService } from './conversations.service.js';
import { TurnsService } from './turns.service.js';

@Module({
  imports: [AgentsModule],
  providers: [ConversationsRepository, ConversationsService, TurnsService],
  exports: [ConversationsService, TurnsService],
})
export class ConversationsModule {}

import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module.js';
import { ConversationsModule } from '../conversations/conversations.module.js';
import { UsageService } from './usage.service.js';

@Module({
  imports: [AgentsModule, ConversationsModule],
  providers: [UsageService],
  exports: [UsageService],
})
export class UsageModule {}

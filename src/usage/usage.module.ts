import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module.js';
import { UsageService } from './usage.service.js';

@Module({
  imports: [AgentsModule],
  providers: [UsageService],
  exports: [UsageService],
})
export class UsageModule {}

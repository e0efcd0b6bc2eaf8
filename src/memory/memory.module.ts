import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module.js';
import { ContextModule } from '../context/context.module.js';
import { LlmModule } from '../llm/llm.module.js';
import { MemoriesRepository } from './memories.repository.js';
import { MemoryService } from './memory.service.js';

/** Long-term memories (the `memories` table). */
@Module({
  imports: [AgentsModule, ContextModule, LlmModule],
  providers: [MemoriesRepository, MemoryService],
  exports: [MemoryService],
})
export class MemoryModule {}

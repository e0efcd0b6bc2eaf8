import { Module } from '@nestjs/common';
import { MemoryModule } from '../memory/memory.module.js';
import { ConversationsModule } from '../conversations/conversations.module.js';
import { RetentionService } from './retention.service.js';

/** Background deletion of conversations older than RETENTION_DAYS (idle when it is unset). */
@Module({
  imports: [ConversationsModule, MemoryModule],
  providers: [RetentionService],
  exports: [RetentionService],
})
export class RetentionModule {}

import { Module } from '@nestjs/common';
import { ConversationsRepository } from './conversations.repository.js';
import { ConversationsService } from './conversations.service.js';
import { TurnsService } from './turns.service.js';

@Module({
  providers: [ConversationsRepository, ConversationsService, TurnsService],
  exports: [ConversationsService, TurnsService],
})
export class ConversationsModule {}

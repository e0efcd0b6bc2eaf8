import { Module } from '@nestjs/common';
import { ConversationsModule } from '../conversations/conversations.module.js';
import { LlmModule } from '../llm/llm.module.js';
import { ChatService } from './chat.service.js';

@Module({
  imports: [ConversationsModule, LlmModule],
  providers: [ChatService],
  exports: [ChatService],
})
export class ChatModule {}

import { Module } from '@nestjs/common';
import { ConversationsModule } from '../conversations/conversations.module.js';
import { LlmModule } from '../llm/llm.module.js';
import { ChatService } from './chat.service.js';
import { ReplyGenerator } from './reply-generator.js';
import { ReplyJanitor } from './reply-janitor.js';

@Module({
  imports: [ConversationsModule, LlmModule],
  providers: [ChatService, ReplyGenerator, ReplyJanitor],
  exports: [ChatService],
})
export class ChatModule {}

import { Module } from '@nestjs/common';
import { ConversationsModule } from '../conversations/conversations.module.js';
import { LlmModule } from '../llm/llm.module.js';
import { ContextModule } from '../context/context.module.js';
import { ChatService } from './chat.service.js';
import { ReplyGenerator } from './reply-generator.js';
import { ReplyJanitor } from './reply-janitor.js';
import { Summarizer } from './summarizer.js';

@Module({
  imports: [ConversationsModule, LlmModule, ContextModule],
  providers: [ChatService, ReplyGenerator, ReplyJanitor, Summarizer],
  exports: [ChatService, Summarizer],
})
export class ChatModule {}

import { Module } from '@nestjs/common';
import { ChatModule } from '../../chat/chat.module.js';
import { ConversationsModule } from '../../conversations/conversations.module.js';
import { StreamingModule } from '../streaming/streaming.module.js';
import { UiChatController } from './ui-chat.controller.js';
import { UiChats } from './ui-chats.js';

/** The Vercel AI SDK `useChat` surface: its UI message stream over our stored conversations. */
@Module({
  // Its streams count against MAX_STREAMS_PER_ACTOR with every other surface's (StreamingModule).
  imports: [ChatModule, ConversationsModule, StreamingModule],
  controllers: [UiChatController],
  providers: [UiChats],
})
export class UiStreamSurfaceModule {}

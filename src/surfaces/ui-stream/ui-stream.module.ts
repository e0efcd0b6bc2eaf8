import { Module } from '@nestjs/common';
import { ChatModule } from '../../chat/chat.module.js';
import { ConversationsModule } from '../../conversations/conversations.module.js';
import { HttpSurfaceModule } from '../http/http.module.js';
import { UiChatController } from './ui-chat.controller.js';
import { UiChats } from './ui-chats.js';

/** The Vercel AI SDK `useChat` surface: its UI message stream over our stored conversations. */
@Module({
  // The REST surface's stream slots: streams of both count against MAX_STREAMS_PER_ACTOR together.
  imports: [ChatModule, ConversationsModule, HttpSurfaceModule],
  controllers: [UiChatController],
  providers: [UiChats],
})
export class UiStreamSurfaceModule {}

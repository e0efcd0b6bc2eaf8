import { Module } from '@nestjs/common';
import { AgentsModule } from '../../agents/agents.module.js';
import { ChatModule } from '../../chat/chat.module.js';
import { ConversationsModule } from '../../conversations/conversations.module.js';
import { StreamingModule } from '../streaming/streaming.module.js';
import { OpenAiConversationsController } from './openai-conversations.controller.js';
import { OpenAiModelsController } from './openai-models.controller.js';
import { OpenAiResponsesController } from './openai-responses.controller.js';

/** OpenAI's Conversations and Responses API under /v1, over the same store as every other surface. */
@Module({
  imports: [ChatModule, ConversationsModule, AgentsModule, StreamingModule],
  controllers: [OpenAiConversationsController, OpenAiResponsesController, OpenAiModelsController],
})
export class OpenAiSurfaceModule {}

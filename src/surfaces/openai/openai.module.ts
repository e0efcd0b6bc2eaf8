import { Module } from '@nestjs/common';
import { AgentsModule } from '../../agents/agents.module.js';
import { ChatModule } from '../../chat/chat.module.js';
import { ConversationsModule } from '../../conversations/conversations.module.js';
import { StreamingModule } from '../streaming/streaming.module.js';
import { OpenAiConversationsController } from './openai-conversations.controller.js';
import { OpenAiModelsController } from './openai-models.controller.js';
import { OpenAiResponsesController } from './openai-responses.controller.js';
import { ResponseReplay } from './openai-response-replay.js';
import { ResponseTurns } from './openai-response-turns.js';
import { UnstoredResponses } from './openai-unstored-responses.js';

/** OpenAI's Conversations and Responses API under /v1, over the same store as every other surface. */
@Module({
  imports: [ChatModule, ConversationsModule, AgentsModule, StreamingModule],
  controllers: [OpenAiConversationsController, OpenAiResponsesController, OpenAiModelsController],
  providers: [ResponseTurns, UnstoredResponses, ResponseReplay],
})
export class OpenAiSurfaceModule {}

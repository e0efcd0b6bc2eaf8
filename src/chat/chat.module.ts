import { Module } from '@nestjs/common';
import { ConversationsModule } from '../conversations/conversations.module.js';
import { LlmModule } from '../llm/llm.module.js';
import { ContextModule } from '../context/context.module.js';
import { ChatService } from './chat.service.js';
import { ReplyGenerator } from './reply-generator.js';
import { GenerationSlots } from './generation-slots.js';
import { RepliesAwaitingStorage } from './replies-awaiting-storage.js';
import { ProgressSaver } from './progress-saver.js';
import { FollowerReads } from './follower-reads.js';
import { ReplyJanitor } from './reply-janitor.js';
import { Summarizer } from './summarizer.js';
import { TurnPlanner } from './turn-planner.js';
import { ReplyStore } from './reply-store.js';
import { TurnStore } from './turn-store.js';
import { TurnHistory } from './turn-history.js';
import { ModelConversation } from './model-conversation.js';
import { MessagePins } from './message-pins.js';
import { ContextPreviews } from './context-previews.js';
import { UnstoredTurns } from './unstored-turn.js';
import { ConversationTitler } from './conversation-titler.js';
import { AgentsModule } from '../agents/agents.module.js';
import { MemoryModule } from '../memory/memory.module.js';
import { RecallModule } from '../recall/recall.module.js';

@Module({
  imports: [ConversationsModule, AgentsModule, LlmModule, ContextModule, MemoryModule, RecallModule],
  providers: [
    ChatService,
    TurnPlanner,
    TurnStore,
    TurnHistory,
    ModelConversation,
    MessagePins,
    ContextPreviews,
    ReplyStore,
    ReplyGenerator,
    GenerationSlots,
    RepliesAwaitingStorage,
    ProgressSaver,
    FollowerReads,
    ReplyJanitor,
    Summarizer,
    UnstoredTurns,
    ConversationTitler,
  ],
  exports: [ChatService, Summarizer],
})
export class ChatModule {}

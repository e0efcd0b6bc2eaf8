import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module.js';
import { LlmModule } from '../llm/llm.module.js';
import { ConversationAliases } from './conversation-aliases.service.js';
import { MessageAliasesRepository } from './message-aliases.repository.js';
import { ConversationAliasesRepository } from './conversation-aliases.repository.js';
import { ConversationItemsRepository } from './conversation-items.repository.js';
import { ConversationItemsService } from './conversation-items.service.js';
import { ResponseRecordsService } from './response-records.service.js';
import { ConversationLimits } from './conversation-limits.js';
import { ConversationsRepository } from './conversations.repository.js';
import { MessagesRepository } from './messages.repository.js';
import { ReplyLease } from './reply-lease.js';
import { ReplyRowsRepository } from './reply-rows.repository.js';
import { ThreadsRepository } from './threads.repository.js';
import { ConversationsService } from './conversations.service.js';
import { ConversationTreeService } from './conversation-tree.service.js';
import { MessageIndexBacklog } from './message-index-backlog.js';
import { MessageSearchRepository } from './message-search.repository.js';
import { RecallExcerptsRepository } from './recall-excerpts.repository.js';
import { MessageTreeRepository } from './message-tree.repository.js';
import { MessageUsageRepository } from './message-usage.repository.js';
import { StaleConversationsRepository } from './stale-conversations.repository.js';
import { SummariesRepository } from './summaries.repository.js';
import { SummariesService } from './summaries.service.js';
import { TurnReadsRepository } from './turn-reads.repository.js';
import { WholeConversationsRepository } from './whole-conversations.repository.js';

@Module({
  imports: [AgentsModule, LlmModule],
  providers: [
    ConversationsRepository,
    MessagesRepository,
    ReplyRowsRepository,
    ReplyLease,
    ThreadsRepository,
    MessageSearchRepository,
    MessageIndexBacklog,
    RecallExcerptsRepository,
    ConversationLimits,
    ConversationsService,
    ConversationTreeService,
    SummariesService,
    WholeConversationsRepository,
    MessageUsageRepository,
    StaleConversationsRepository,
    MessageTreeRepository,
    SummariesRepository,
    ConversationAliasesRepository,
    ConversationAliases,
    ConversationItemsRepository,
    ConversationItemsService,
    ResponseRecordsService,
    TurnReadsRepository,
    MessageAliasesRepository,
  ],
  exports: [
    ConversationsRepository,
    MessagesRepository,
    ReplyRowsRepository,
    ReplyLease,
    ThreadsRepository,
    MessageSearchRepository,
    MessageIndexBacklog,
    RecallExcerptsRepository,
    ConversationLimits,
    ConversationsService,
    ConversationTreeService,
    SummariesService,
    WholeConversationsRepository,
    MessageUsageRepository,
    StaleConversationsRepository,
    MessageTreeRepository,
    SummariesRepository,
    ConversationAliasesRepository,
    ConversationAliases,
    ConversationItemsService,
    ResponseRecordsService,
    TurnReadsRepository,
    MessageAliasesRepository,
  ],
})
export class ConversationsModule {}

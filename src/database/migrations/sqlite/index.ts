import { InitialSchema1764480000000 } from './1764480000000-initial-schema.js';
import { ReplyLifecycle1764490000000 } from './1764490000000-reply-lifecycle.js';
import { IdempotencyKeys1764510000000 } from './1764510000000-idempotency-keys.js';
import { AgentsStateThreads1764520000000 } from './1764520000000-agents-state-threads.js';
import { ContextSummaries1764530000000 } from './1764530000000-context-summaries.js';
import { IdempotencyConversationFk1764540000000 } from './1764540000000-idempotency-conversation-fk.js';
import { SearchTags1764550000000 } from './1764550000000-search-tags.js';
import { ApiKeys1764560000000 } from './1764560000000-api-keys.js';
import { FtsSkipEmpty1764570000000 } from './1764570000000-fts-skip-empty.js';
import { StorageProbeFtsView1764580000000 } from './1764580000000-storage-probe-fts-view.js';
import { TelegramUpdates1764590000000 } from './1764590000000-telegram-updates.js';
import { ReplyErrorCodes1764600000000 } from './1764600000000-reply-error-codes.js';
import { MessageTree1764620000000 } from './1764620000000-message-tree.js';
import { Memories1764630000000 } from './1764630000000-memories.js';
import { ConversationAliases1764640000000 } from './1764640000000-conversation-aliases.js';
import { OpenAiItems1764650000000 } from './1764650000000-openai-items.js';
import { Shares1764670000000 } from './1764670000000-shares.js';
import { FtsSkipStreaming1764680000000 } from './1764680000000-fts-skip-streaming.js';
import { SearchOwners1764710000000 } from './1764710000000-search-owners.js';
import { ActorColumns1764750000000 } from './1764750000000-actor-columns.js';
import { RankedSearch1764810000000 } from './1764810000000-ranked-search.js';
import { RecalledMessageIds1764830000000 } from './1764830000000-recalled-message-ids.js';
import { OAuth1764910000000 } from './1764910000000-oauth.js';
import { MessageAliases1764920000000 } from './1764920000000-message-aliases.js';
import { ImportSources1764941000000 } from './1764941000000-import-sources.js';
import { ModelChoiceReasoning1764950000000 } from './1764950000000-model-choice-reasoning.js';
import { UsageIndex1764960000000 } from './1764960000000-usage-index.js';
import { FtsLeafSize1764970000000 } from './1764970000000-fts-leaf-size.js';
import { FtsPending1764980000000 } from './1764980000000-fts-pending.js';

/** Every SQLite migration, oldest first. A new one must be added here. */
export const SQLITE_MIGRATIONS = [
  InitialSchema1764480000000,
  ReplyLifecycle1764490000000,
  IdempotencyKeys1764510000000,
  AgentsStateThreads1764520000000,
  ContextSummaries1764530000000,
  IdempotencyConversationFk1764540000000,
  SearchTags1764550000000,
  ApiKeys1764560000000,
  FtsSkipEmpty1764570000000,
  StorageProbeFtsView1764580000000,
  TelegramUpdates1764590000000,
  ReplyErrorCodes1764600000000,
  MessageTree1764620000000,
  Memories1764630000000,
  ConversationAliases1764640000000,
  OpenAiItems1764650000000,
  Shares1764670000000,
  FtsSkipStreaming1764680000000,
  SearchOwners1764710000000,
  ActorColumns1764750000000,
  RankedSearch1764810000000,
  RecalledMessageIds1764830000000,
  OAuth1764910000000,
  MessageAliases1764920000000,
  ImportSources1764941000000,
  ModelChoiceReasoning1764950000000,
  UsageIndex1764960000000,
  FtsLeafSize1764970000000,
  FtsPending1764980000000,
];

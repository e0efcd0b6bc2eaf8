import { PgInitialSchema1764500000000 } from './1764500000000-initial-schema.js';
import { PgIdempotencyKeys1764510000000 } from './1764510000000-idempotency-keys.js';
import { PgAgentsStateThreads1764520000000 } from './1764520000000-agents-state-threads.js';
import { PgContextSummaries1764530000000 } from './1764530000000-context-summaries.js';
import { PgIdempotencyConversationFk1764540000000 } from './1764540000000-idempotency-conversation-fk.js';
import { PgSearchTags1764550000000 } from './1764550000000-search-tags.js';
import { PgApiKeys1764560000000 } from './1764560000000-api-keys.js';
import { PgStorageProbe1764580000000 } from './1764580000000-storage-probe.js';
import { PgTelegramUpdates1764590000000 } from './1764590000000-telegram-updates.js';
import { PgRateLimitCounters1764596000000 } from './1764596000000-rate-limit-counters.js';
import { PgReplyErrorCodes1764600000000 } from './1764600000000-reply-error-codes.js';
import { PgMessagesSearch1764610000000 } from './1764610000000-messages-search.js';
import { PgMessageTree1764620000000 } from './1764620000000-message-tree.js';
import { PgMemories1764630000000 } from './1764630000000-memories.js';
import { PgConversationAliases1764640000000 } from './1764640000000-conversation-aliases.js';
import { PgOpenAiItems1764650000000 } from './1764650000000-openai-items.js';
import { PgShares1764670000000 } from './1764670000000-shares.js';
import { PgSearchSkipStreaming1764680000000 } from './1764680000000-search-skip-streaming.js';
import { PgActorKeys1764750000000 } from './1764750000000-actor-keys.js';
import { PgRankedSearch1764810000000 } from './1764810000000-ranked-search.js';
import { PgRecalledMessageIds1764830000000 } from './1764830000000-recalled-message-ids.js';
import { PgOAuth1764910000000 } from './1764910000000-oauth.js';
import { PgMessageAliases1764920000000 } from './1764920000000-message-aliases.js';
import { PgDeferrableActorKeys1764940000000 } from './1764940000000-deferrable-actor-keys.js';
import { PgImportSources1764941000000 } from './1764941000000-import-sources.js';
import { PgModelChoiceReasoning1764950000000 } from './1764950000000-model-choice-reasoning.js';
import { PgUsageIndex1764960000000 } from './1764960000000-usage-index.js';

/** Every PostgreSQL migration, oldest first. A new one must be added here. */
export const POSTGRES_MIGRATIONS = [
  PgInitialSchema1764500000000,
  PgIdempotencyKeys1764510000000,
  PgAgentsStateThreads1764520000000,
  PgContextSummaries1764530000000,
  PgIdempotencyConversationFk1764540000000,
  PgSearchTags1764550000000,
  PgApiKeys1764560000000,
  PgStorageProbe1764580000000,
  PgTelegramUpdates1764590000000,
  PgRateLimitCounters1764596000000,
  PgReplyErrorCodes1764600000000,
  PgMessagesSearch1764610000000,
  PgMessageTree1764620000000,
  PgMemories1764630000000,
  PgConversationAliases1764640000000,
  PgOpenAiItems1764650000000,
  PgShares1764670000000,
  PgSearchSkipStreaming1764680000000,
  PgActorKeys1764750000000,
  PgRankedSearch1764810000000,
  PgRecalledMessageIds1764830000000,
  PgOAuth1764910000000,
  PgMessageAliases1764920000000,
  PgDeferrableActorKeys1764940000000,
  PgImportSources1764941000000,
  PgModelChoiceReasoning1764950000000,
  PgUsageIndex1764960000000,
];

import { ApiKey } from './actor-auth/api-key.entity.js';
import { Agent } from './agents/agent.entity.js';
import { ConversationAlias } from './conversations/conversation-alias.entity.js';
import { MessageAlias } from './conversations/message-alias.entity.js';
import { ConversationTag } from './conversations/conversation-tag.entity.js';
import { Conversation } from './conversations/conversation.entity.js';
import { Message } from './conversations/message.entity.js';
import { ResponseRecord } from './conversations/response-record.entity.js';
import { Summary } from './conversations/summary.entity.js';
import { Thread } from './conversations/thread.entity.js';
import { Memory } from './memory/memory.entity.js';
import { IdempotencyKey } from './idempotency/idempotency-key.entity.js';
import { TelegramUpdate } from './telegram-inbox/telegram-update.entity.js';
import { Share } from './sharing/share.entity.js';
import { OAuthClient } from './oauth/oauth-client.entity.js';
import { OAuthGrant } from './oauth/oauth-grant.entity.js';
import { OAuthToken } from './oauth/oauth-token.entity.js';

/** Every table's entity, each from the module that owns it: the data source is opened with these. */
export const ENTITIES = [
  Conversation,
  ConversationTag,
  Message,
  Thread,
  Summary,
  Agent,
  IdempotencyKey,
  ApiKey,
  TelegramUpdate,
  ConversationAlias,
  ResponseRecord,
  Memory,
  Share,
  OAuthClient,
  OAuthGrant,
  OAuthToken,
  MessageAlias,
];

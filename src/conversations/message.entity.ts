import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import type { ReplyError, ReplyErrorCode } from '../common/domain-error.js';
import type { Conversation } from './conversation.entity.js';
import { compactIdList } from './compact-id-list.js';

export const MESSAGE_ROLES = ['user', 'assistant', 'system', 'tool'] as const;
export type MessageRole = (typeof MESSAGE_ROLES)[number];

/**
 * `streaming`: a reply being generated (its content grows); `complete`: finished;
 * `truncated`: cut at MAX_REPLY_CHARS or LLM_MAX_REPLY_MS (text up to the cut kept, the reason
 * in its error); `failed`: the model broke off (partial text kept); `cancelled`: stopped on
 * request (partial text kept). Only `complete` and `truncated` are replayed to the model.
 */
export const MESSAGE_STATUSES = ['streaming', 'complete', 'truncated', 'failed', 'cancelled'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];
/** The statuses of replies that are replayed to the model, as an SQL list. */
export const REPLAYED_STATUSES_SQL = "('complete', 'truncated')";

/** A tool the model called during a reply, and what it got back. */
export interface ToolCallRecord {
  readonly name: string;
  readonly arguments: string;
  readonly result: string;
}

/** A call of a function the client runs (an OpenAI function tool): the reply that asked stores it, the client answers it. */
export interface FunctionCallRecord {
  readonly callId: string;
  readonly name: string;
  readonly arguments: string;
}

/** An earlier answer replaced by a regeneration: readable, never replayed. */
export interface MessageVersion {
  readonly content: string;
  readonly status: MessageStatus;
  readonly model: string | null;
  readonly promptTokens: number | null;
  readonly completionTokens: number | null;
  /** Why that answer failed, if it did. */
  readonly error?: ReplyError | null;
  readonly createdAt: string;
}

/**
 * The answer a message holds, in the shape it is read back in (an API message, an export, an
 * earlier answer kept in `versions`).
 */
export function versionOf(m: Message): Required<MessageVersion> {
  return {
    content: m.content,
    status: m.status,
    model: m.model,
    promptTokens: m.promptTokens,
    completionTokens: m.completionTokens,
    error: replyErrorOf(m),
    createdAt: m.createdAt.toISOString(),
  };
}

/** Why the reply failed or was cut, or null. */
export function replyErrorOf(m: Pick<Message, 'errorCode' | 'errorMessage'>): ReplyError | null {
  return m.errorCode === null ? null : { code: m.errorCode, message: m.errorMessage ?? '' };
}

@Entity('messages')
// Unique per conversation, and the index every history read walks backwards (ORDER BY seq DESC LIMIT n).
@Index('uq_messages_conversation_seq', ['conversationId', 'seq', 'actor'], { unique: true })
// Tiny (only replies in progress): lets the janitor find replies whose generator died.
@Index('idx_messages_streaming_lease', ['leaseUntil'], { where: "status = 'streaming'" })
// Full-text index of contents, made by the migrations (SQLite: the FTS5 table; PostgreSQL: the table messages_search, 1764610000000).
@Index('idx_messages_fts', { synchronize: false })
// The active path: one thread's (or every thread's) history newest first, never walking the
// branches left aside, so a turn costs the same however large the tree grows.
@Index('idx_messages_path_thread', ['conversationId', 'thread', 'seq'], { where: 'on_path = 1' })
@Index('idx_messages_path', ['conversationId', 'seq'], { where: 'on_path = 1' })
// A message's children (its siblings are its parent's children).
@Index('idx_messages_parent', ['conversationId', 'parentId'])
// The token usage of replies (messages that have one): a conversation's totals, summed without its rows.
@Index('idx_messages_usage', ['conversationId', 'actor', 'promptTokens', 'completionTokens'], {
  where: 'prompt_tokens IS NOT NULL OR completion_tokens IS NOT NULL',
})
// The pinned messages of a thread's active path, which every turn sends (docs/memory.md).
@Index('idx_messages_pinned', ['conversationId', 'thread', 'seq'], { where: 'pinned = 1 AND on_path = 1' })
export class Message {
  @PrimaryColumn({ type: 'varchar', length: 36, primaryKeyConstraintName: 'pk_messages' })
  id: string;

  @Column({ name: 'conversation_id', type: 'varchar', length: 36 })
  conversationId: string;

  /** The conversation's actor, copied here so that every per-actor table is keyed by it (docs/operations.md, "Distributing by actor"). */
  @PrimaryColumn({ type: 'varchar', length: 200, primaryKeyConstraintName: 'pk_messages' })
  actor: string;

  @ManyToOne('Conversation', (c: Conversation) => c.messages, { onDelete: 'CASCADE' })
  @JoinColumn([
    { name: 'conversation_id', referencedColumnName: 'id', foreignKeyConstraintName: 'fk_messages_conversation' },
    { name: 'actor', referencedColumnName: 'actor', foreignKeyConstraintName: 'fk_messages_conversation' },
  ])
  conversation?: Relation<Conversation>;

  /** The thread the message belongs to (`main` unless a request names another). */
  @Column({ type: 'varchar', length: 64, default: 'main' })
  thread: string;

  /** 1, 2, 3… within the conversation, in the order messages were stored: along any path of the tree it only grows. */
  @Column({ type: 'integer' })
  seq: number;

  /** The message this one follows (null for the first of its thread, and for an edit of that one). */
  @Column({ name: 'parent_id', type: 'varchar', length: 36, nullable: true })
  parentId: string | null;

  /**
   * On its thread's active path: the branch a turn continues from, and all that is replayed to
   * the model. Other branches are kept, readable, and selectable.
   */
  @Column({
    name: 'on_path',
    type: 'smallint',
    default: 1,
    transformer: {
      to: (v?: boolean) => (v === undefined ? undefined : v ? 1 : 0),
      from: (v: number | boolean) => v === 1 || v === true,
    },
  })
  onPath: boolean;

  /** Always sent to the model while on the active path, whatever the window or the summary (docs/memory.md). */
  @Column({
    type: 'smallint',
    default: 0,
    transformer: {
      to: (v?: boolean) => (v === undefined ? undefined : v ? 1 : 0),
      from: (v: number | boolean) => v === 1 || v === true,
    },
  })
  pinned: boolean;

  @Column({ type: 'varchar', length: 16 })
  role: MessageRole;

  @Column({ type: 'text' })
  content: string;

  /** Tokens of `content`, counted once when stored (null for messages stored before counting existed). */
  @Column({ type: 'integer', nullable: true })
  tokens: number | null;

  @Column({ type: 'varchar', length: 16, default: 'complete' })
  status: MessageStatus;

  /** The model that wrote an assistant message. */
  @Column({ type: 'varchar', length: 200, nullable: true })
  model: string | null;

  @Column({ name: 'prompt_tokens', type: 'integer', nullable: true })
  promptTokens: number | null;

  @Column({ name: 'completion_tokens', type: 'integer', nullable: true })
  completionTokens: number | null;

  /** Earlier answers to the same question, oldest first (see regenerate). */
  @Column({ type: 'simple-json', nullable: true })
  versions: MessageVersion[] | null;

  /**
   * What a reasoning model streamed as its thinking before (or beside) the answer (`reasoning_content`
   * or `reasoning` deltas), bounded like the reply; never replayed to the model. Null: none.
   */
  @Column({ type: 'text', nullable: true })
  reasoning: string | null;

  /** How long the model reasoned, from its first reasoning delta to its first piece of answer (null: no reasoning). */
  @Column({ name: 'reasoning_ms', type: 'integer', nullable: true })
  reasoningMs: number | null;

  /** Tool calls the model made while producing this reply, with their results (not replayed). */
  @Column({ name: 'tool_calls', type: 'simple-json', nullable: true })
  toolCalls: ToolCallRecord[] | null;

  /** Functions of the client this reply asks to be called (replayed with the outputs that follow it); null for most replies. */
  @Column({ name: 'function_calls', type: 'simple-json', nullable: true })
  functionCalls: FunctionCallRecord[] | null;

  /** On a `tool` message: the function call (FunctionCallRecord.callId) whose output it is. */
  @Column({ name: 'call_id', type: 'varchar', length: 100, nullable: true })
  callId: string | null;

  /** The long-term memories a reply was given (null: none, or a message that is no reply). */
  @Column({ name: 'memory_ids', type: 'text', nullable: true, transformer: compactIdList })
  memoryIds: string[] | null;

  /** The messages of the actor's past a reply was given by recall, best match first (null: none, or a message that is no reply). */
  @Column({ name: 'recalled_message_ids', type: 'text', nullable: true, transformer: compactIdList })
  recalledMessageIds: string[] | null;

  /** Why a reply failed or was cut: a stable code (each surface maps it to its protocol), and a readable message. */
  @Column({ name: 'error_code', type: 'varchar', length: 32, nullable: true })
  errorCode: ReplyErrorCode | null;

  @Column({ name: 'error_message', type: 'text', nullable: true })
  errorMessage: string | null;

  /**
   * While `streaming`: the generator renews this as it works. Once it passes, the generator is
   * presumed dead (its instance stopped) and the reply is closed as failed by whoever notices.
   */
  @Column({ name: 'lease_until', type: Date, nullable: true })
  leaseUntil: Date | null;

  /** Set by a stop request (from any instance); the generator sees it and stops. */
  @Column({ name: 'cancel_requested_at', type: Date, nullable: true })
  cancelRequestedAt: Date | null;

  @Column({ name: 'created_at', type: Date })
  createdAt: Date;

  /** Loaded with reads, not a column: its siblings (itself included), oldest first. */
  siblingIds?: string[];

  /** Loaded with reads, not a column: the other answers to its question (sibling replies), oldest first. */
  otherAnswers?: MessageVersion[];
}

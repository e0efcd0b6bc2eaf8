import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import type { Conversation } from '../conversations/conversation.entity.js';
import type { MessageRole, MessageStatus } from '../conversations/message.entity.js';

/** One message of a share's snapshot, as copied when the share was made. */
export interface SharedMessage {
  readonly role: MessageRole;
  readonly content: string;
  readonly model: string | null;
  /** Kept for a fork (a failed reply stays failed there); never shown to a reader. */
  readonly status: MessageStatus;
  readonly createdAt: string;
}

/**
 * A read-only link to a snapshot of one branch of a conversation: the active path up to a
 * message, copied at share time, so later turns, edits or deletions of messages never show
 * through it. Only the SHA-256 of its token is stored; deleting the conversation (or erasing
 * its owner, or retention) deletes its shares through the foreign key.
 */
@Entity('shares')
@Index('uq_shares_token_hash', ['tokenHash', 'actor'], { unique: true })
// The owner's listing of one conversation's shares, and the cascade from a deleted conversation.
@Index('idx_shares_conversation', ['conversationId', 'createdAt'])
// The owner's shares as a whole (the account export), keyed by actor like every per-actor table.
@Index('idx_shares_actor', ['actor', 'createdAt'])
export class Share {
  @PrimaryColumn({ type: 'varchar', length: 36, primaryKeyConstraintName: 'pk_shares' })
  id: string;

  /** The owner, e.g. `api:alice`: who made it, and the only one who lists or revokes it. */
  @PrimaryColumn({ type: 'varchar', length: 200, primaryKeyConstraintName: 'pk_shares' })
  actor: string;

  @Column({ name: 'conversation_id', type: 'varchar', length: 36 })
  conversationId: string;

  @ManyToOne('Conversation', { onDelete: 'CASCADE' })
  @JoinColumn([
    { name: 'conversation_id', referencedColumnName: 'id', foreignKeyConstraintName: 'fk_shares_conversation' },
    { name: 'actor', referencedColumnName: 'actor', foreignKeyConstraintName: 'fk_shares_conversation' },
  ])
  conversation?: Relation<Conversation>;

  /** Hex SHA-256 of the token (the token itself is answered once, when the share is made). */
  @Column({ name: 'token_hash', type: 'varchar', length: 64 })
  tokenHash: string;

  /** The conversation's title when shared. */
  @Column({ type: 'varchar', length: 200 })
  title: string;

  /** The last message of the snapshot (the owner's reference; never shown to a reader). */
  @Column({ name: 'up_to_message_id', type: 'varchar', length: 36 })
  upToMessageId: string;

  @Column({ name: 'message_count', type: 'integer' })
  messageCount: number;

  @Column({ type: 'simple-json' })
  messages: SharedMessage[];

  @Column({ name: 'created_at', type: Date })
  createdAt: Date;

  /** Past this instant the link answers like an unknown one; null: until revoked. */
  @Column({ name: 'expires_at', type: Date, nullable: true })
  expiresAt: Date | null;
}

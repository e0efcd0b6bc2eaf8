import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import type { Conversation } from '../conversations/conversation.entity.js';

/**
 * A client's Idempotency-Key and what became of the request that first used it. Keyed per
 * actor, so one actor's keys never collide with (or reveal) another's.
 */
@Entity('idempotency_keys')
@Index('idx_idempotency_keys_created', ['createdAt'])
export class IdempotencyKey {
  @PrimaryColumn({ type: 'varchar', length: 200 })
  actor: string;

  @PrimaryColumn({ type: 'varchar', length: 255 })
  key: string;

  /** SHA-256 of the route and body: the same key with another request is refused. */
  @Column({ name: 'request_hash', type: 'varchar', length: 64 })
  requestHash: string;

  /** Which claim holds the key while it runs (a random id per attempt). */
  @Column({ type: 'varchar', length: 36 })
  token: string;

  @Column({ type: 'varchar', length: 16 })
  state: 'running' | 'done';

  /** The turn's conversation once it started; deleting the conversation forgets the key and its stored answer. */
  @Column({ name: 'conversation_id', type: 'varchar', length: 36, nullable: true })
  conversationId: string | null;

  @ManyToOne('Conversation', { onDelete: 'CASCADE', nullable: true })
  @JoinColumn([
    {
      name: 'conversation_id',
      referencedColumnName: 'id',
      foreignKeyConstraintName: 'fk_idempotency_keys_conversation',
    },
    { name: 'actor', referencedColumnName: 'actor', foreignKeyConstraintName: 'fk_idempotency_keys_conversation' },
  ])
  conversation?: Relation<Conversation> | null;

  @Column({ name: 'message_id', type: 'varchar', length: 36, nullable: true })
  messageId: string | null;

  @Column({ name: 'response_status', type: 'integer', nullable: true })
  responseStatus: number | null;

  @Column({ name: 'response_body', type: 'simple-json', nullable: true })
  responseBody: Record<string, unknown> | null;

  /** A running claim past this is presumed dead (its instance stopped) and may be taken over. */
  @Column({ name: 'lease_until', type: Date })
  leaseUntil: Date;

  @Column({ name: 'created_at', type: Date })
  createdAt: Date;
}

import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import type { Conversation } from './conversation.entity.js';

export const MAIN_THREAD = 'main';
export const THREAD_NAME = /^[a-z0-9_-]{1,64}$/;

/**
 * A named line of dialogue inside a conversation, with its own history and window; all
 * threads share the conversation's state. Created when first used.
 */
@Entity('threads')
export class Thread {
  @PrimaryColumn({ name: 'conversation_id', type: 'varchar', length: 36, primaryKeyConstraintName: 'pk_threads' })
  conversationId: string;

  @ManyToOne('Conversation', { onDelete: 'CASCADE' })
  @JoinColumn([
    { name: 'conversation_id', referencedColumnName: 'id', foreignKeyConstraintName: 'fk_threads_conversation' },
    { name: 'actor', referencedColumnName: 'actor', foreignKeyConstraintName: 'fk_threads_conversation' },
  ])
  conversation?: Relation<Conversation>;

  @PrimaryColumn({ type: 'varchar', length: 64, primaryKeyConstraintName: 'pk_threads' })
  name: string;

  /** The conversation's actor, copied here so that every per-actor table is keyed by it (docs/operations.md, "Distributing by actor"). */
  @PrimaryColumn({ type: 'varchar', length: 200, primaryKeyConstraintName: 'pk_threads' })
  actor: string;

  /** The thread's own instructions (`system` on a chat request), kept for its later turns. */
  @Column({ name: 'system_prompt', type: 'text', nullable: true })
  systemPrompt: string | null;

  @Column({ name: 'created_at', type: Date })
  createdAt: Date;

  @Column({ name: 'updated_at', type: Date })
  updatedAt: Date;
}

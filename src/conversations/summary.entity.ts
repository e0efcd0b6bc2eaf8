import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import type { Conversation } from './conversation.entity.js';

/**
 * The running summary of a thread: what fell out of its window, folded by the model. It
 * covers every message of the thread up to `coversSeq`.
 */
@Entity('summaries')
export class Summary {
  @PrimaryColumn({ name: 'conversation_id', type: 'varchar', length: 36, primaryKeyConstraintName: 'pk_summaries' })
  conversationId: string;

  @ManyToOne('Conversation', { onDelete: 'CASCADE' })
  @JoinColumn([
    { name: 'conversation_id', referencedColumnName: 'id', foreignKeyConstraintName: 'fk_summaries_conversation' },
    { name: 'actor', referencedColumnName: 'actor', foreignKeyConstraintName: 'fk_summaries_conversation' },
  ])
  conversation?: Relation<Conversation>;

  @PrimaryColumn({ type: 'varchar', length: 64, primaryKeyConstraintName: 'pk_summaries' })
  thread: string;

  /** The conversation's actor, copied here so that every per-actor table is keyed by it (docs/operations.md, "Distributing by actor"). */
  @PrimaryColumn({ type: 'varchar', length: 200, primaryKeyConstraintName: 'pk_summaries' })
  actor: string;

  @Column({ type: 'text' })
  content: string;

  @Column({ name: 'covers_seq', type: 'integer' })
  coversSeq: number;

  /** Tokens of `content` (with the encoding of `model`). */
  @Column({ type: 'integer' })
  tokens: number;

  @Column({ type: 'varchar', length: 200 })
  model: string;

  /** What the folds so far cost, in total. */
  @Column({ name: 'prompt_tokens', type: 'integer', default: 0 })
  promptTokens: number;

  @Column({ name: 'completion_tokens', type: 'integer', default: 0 })
  completionTokens: number;

  @Column({ name: 'updated_at', type: Date })
  updatedAt: Date;
}

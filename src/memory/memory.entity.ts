import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** The longest memory text: a fact, not a document. */
export const MAX_MEMORY_CHARS = 1000;

/**
 * A long-term memory: a fact about its owner that every later turn may read (docs/memory.md).
 * Written by the owner (REST, web page) or by the model through the remember tool; global to the
 * actor's conversations, or scoped to one agent's.
 */
@Entity('memories')
// The listing (newest first) and the pinned ones a turn always reads, without a sort.
@Index('idx_memories_actor_updated', ['actor', 'updatedAt', 'id'])
@Index('idx_memories_actor_pinned', ['actor', 'updatedAt'], { where: 'pinned = 1' })
// Retention (RETENTION_DAYS) finds the memories nobody updated since the cutoff, whoever owns them.
@Index('idx_memories_updated', ['updatedAt'])
// Full-text index of texts, made by the migrations (SQLite: the FTS5 table memories_fts; PostgreSQL: a GIN expression index).
@Index('idx_memories_fts', { synchronize: false })
export class Memory {
  @PrimaryColumn({ type: 'varchar', length: 36, primaryKeyConstraintName: 'pk_memories' })
  id: string;

  /** Owner, e.g. `api:alice` or `telegram:42`. */
  @PrimaryColumn({ type: 'varchar', length: 200, primaryKeyConstraintName: 'pk_memories' })
  actor: string;

  /** Read only in this agent's conversations; null: in all of the actor's conversations. */
  @Column({ name: 'agent_id', type: 'varchar', length: 36, nullable: true })
  agentId: string | null;

  @Column({ type: 'text' })
  text: string;

  /** Tokens of `text` with the default model's encoding, counted when written: a turn adds integers instead of counting. */
  @Column({ type: 'integer', nullable: true })
  tokens: number | null;

  /** Read on every turn, before the memories that match the question. */
  @Column({
    type: 'smallint',
    default: 0,
    transformer: {
      to: (v?: boolean) => (v === undefined ? undefined : v ? 1 : 0),
      from: (v: number | boolean) => v === 1 || v === true,
    },
  })
  pinned: boolean;

  /** Where it was learned (informative: the conversation may be gone since). */
  @Column({ name: 'source_conversation_id', type: 'varchar', length: 36, nullable: true })
  sourceConversationId: string | null;

  @Column({ name: 'source_message_id', type: 'varchar', length: 36, nullable: true })
  sourceMessageId: string | null;

  @Column({ name: 'created_at', type: Date })
  createdAt: Date;

  @Column({ name: 'updated_at', type: Date })
  updatedAt: Date;
}

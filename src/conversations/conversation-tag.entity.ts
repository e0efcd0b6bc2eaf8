import { Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import type { Conversation } from './conversation.entity.js';

/** A label on a conversation (listing filter `tag=`). */
@Entity('conversation_tags')
@Index('idx_conversation_tags_tag', ['tag', 'conversationId'])
export class ConversationTag {
  @PrimaryColumn({
    name: 'conversation_id',
    type: 'varchar',
    length: 36,
    primaryKeyConstraintName: 'pk_conversation_tags',
  })
  conversationId: string;

  @ManyToOne('Conversation', { onDelete: 'CASCADE' })
  @JoinColumn([
    {
      name: 'conversation_id',
      referencedColumnName: 'id',
      foreignKeyConstraintName: 'fk_conversation_tags_conversation',
    },
    { name: 'actor', referencedColumnName: 'actor', foreignKeyConstraintName: 'fk_conversation_tags_conversation' },
  ])
  conversation?: Relation<Conversation>;

  @PrimaryColumn({ type: 'varchar', length: 50, primaryKeyConstraintName: 'pk_conversation_tags' })
  tag: string;

  /** The conversation's actor, copied here so that every per-actor table is keyed by it (docs/operations.md, "Distributing by actor"). */
  @PrimaryColumn({ type: 'varchar', length: 200, primaryKeyConstraintName: 'pk_conversation_tags' })
  actor: string;
}

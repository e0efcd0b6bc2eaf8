import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import type { Conversation } from './conversation.entity.js';

/** The longest client name for a conversation (the AI SDK's chat id): 1-128 of `[A-Za-z0-9_-]`. */
export const MAX_ALIAS_CHARS = 128;
export const ALIAS_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;

/**
 * A client's own name for one of its actor's conversations (the AI SDK's chat id). The key is
 * (actor, alias): another actor using the same name has a conversation of its own.
 */
@Entity('conversation_aliases')
// Deleting a conversation deletes its aliases through the foreign key: this index serves that.
@Index('idx_conversation_aliases_conversation', ['conversationId'])
export class ConversationAlias {
  @PrimaryColumn({ type: 'varchar', length: 200 })
  actor: string;

  @PrimaryColumn({ type: 'varchar', length: MAX_ALIAS_CHARS })
  alias: string;

  @Column({ name: 'conversation_id', type: 'varchar', length: 36 })
  conversationId: string;

  @ManyToOne('Conversation', { onDelete: 'CASCADE' })
  @JoinColumn([
    {
      name: 'conversation_id',
      referencedColumnName: 'id',
      foreignKeyConstraintName: 'fk_conversation_aliases_conversation',
    },
    { name: 'actor', referencedColumnName: 'actor', foreignKeyConstraintName: 'fk_conversation_aliases_conversation' },
  ])
  conversation?: Relation<Conversation>;

  @Column({ name: 'created_at', type: Date })
  createdAt: Date;
}

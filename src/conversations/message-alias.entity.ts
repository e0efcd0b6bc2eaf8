import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import type { Conversation } from './conversation.entity.js';
import { MAX_ALIAS_CHARS } from './conversation-alias.entity.js';

/**
 * A client's own id for one message of a conversation (the id the AI SDK gives a message typed
 * in the browser), so the client can name it (edit, regenerate) before it reads our ids. The key
 * is (actor, conversation, alias): the same id in another conversation names another message.
 */
@Entity('message_aliases')
// The client ids of a page of messages, and the foreign key's deletes.
@Index('idx_message_aliases_message', ['conversationId', 'messageId'])
export class MessageAlias {
  @PrimaryColumn({ type: 'varchar', length: 200 })
  actor: string;

  @PrimaryColumn({ name: 'conversation_id', type: 'varchar', length: 36 })
  conversationId: string;

  @PrimaryColumn({ type: 'varchar', length: MAX_ALIAS_CHARS })
  alias: string;

  @Column({ name: 'message_id', type: 'varchar', length: 36 })
  messageId: string;

  @ManyToOne('Conversation', { onDelete: 'CASCADE' })
  @JoinColumn([
    {
      name: 'conversation_id',
      referencedColumnName: 'id',
      foreignKeyConstraintName: 'fk_message_aliases_conversation',
    },
    { name: 'actor', referencedColumnName: 'actor', foreignKeyConstraintName: 'fk_message_aliases_conversation' },
  ])
  conversation?: Relation<Conversation>;

  @Column({ name: 'created_at', type: Date })
  createdAt: Date;
}

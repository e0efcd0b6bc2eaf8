import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import type { Conversation } from './conversation.entity.js';

export const MESSAGE_ROLES = ['user', 'assistant', 'system', 'tool'] as const;
export type MessageRole = (typeof MESSAGE_ROLES)[number];

/** `complete` messages are replayed to the model; `failed` ones are kept for the record only. */
export const MESSAGE_STATUSES = ['complete', 'failed'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

@Entity('messages')
// Unique per conversation, and the index every history read walks backwards (ORDER BY seq DESC LIMIT n).
@Index('uq_messages_conversation_seq', ['conversationId', 'seq'], { unique: true })
export class Message {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ name: 'conversation_id', type: 'varchar', length: 36 })
  conversationId: string;

  @ManyToOne('Conversation', (c: Conversation) => c.messages, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'conversation_id' })
  conversation?: Relation<Conversation>;

  /** 1, 2, 3… within the conversation: the order of the dialogue, independent of clocks. */
  @Column({ type: 'integer' })
  seq: number;

  @Column({ type: 'varchar', length: 16 })
  role: MessageRole;

  @Column({ type: 'text' })
  content: string;

  @Column({ type: 'varchar', length: 16, default: 'complete' })
  status: MessageStatus;

  /** The model that wrote an assistant message. */
  @Column({ type: 'varchar', length: 200, nullable: true })
  model: string | null;

  @Column({ name: 'prompt_tokens', type: 'integer', nullable: true })
  promptTokens: number | null;

  @Column({ name: 'completion_tokens', type: 'integer', nullable: true })
  completionTokens: number | null;

  @Column({ name: 'created_at', type: Date })
  createdAt: Date;
}

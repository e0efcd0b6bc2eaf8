import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import type { Message } from './message.entity.js';

/** What a client asked for when a reply was made as a response (the OpenAI surface), echoed when it is read back. */
export interface ResponseRequest {
  readonly instructions: string | null;
  readonly metadata: Record<string, string> | null;
  readonly previousResponseId: string | null;
  /** The reply was asked for in a conversation (rather than after a response, or alone). */
  readonly inConversation: boolean;
  readonly temperature: number | null;
  readonly maxOutputTokens: number | null;
  readonly tools: unknown[];
  readonly toolChoice: unknown;
  /** Absent on records made before these were used: read back as their defaults. */
  readonly topP?: number | null;
  readonly parallelToolCalls?: boolean | null;
  /** OpenAI's `text.format` as asked (`{ type: "text" }` when absent). */
  readonly textFormat?: unknown;
  readonly truncation?: 'auto' | 'disabled';
  /** How many messages the request stored right before its reply (its input items). */
  readonly inputCount?: number;
  /** Made with `background: true`. */
  readonly background?: boolean;
}

/** A reply's request as a response: one row per reply made on the OpenAI surface; it goes with its message. */
@Entity('response_records')
export class ResponseRecord {
  @PrimaryColumn({ name: 'message_id', type: 'varchar', length: 36, primaryKeyConstraintName: 'pk_response_records' })
  messageId: string;

  @ManyToOne('Message', { onDelete: 'CASCADE' })
  @JoinColumn([
    { name: 'message_id', referencedColumnName: 'id', foreignKeyConstraintName: 'fk_response_records_message' },
    { name: 'actor', referencedColumnName: 'actor', foreignKeyConstraintName: 'fk_response_records_message' },
  ])
  message?: Relation<Message>;

  /** The conversation's actor, copied here so that every per-actor table is keyed by it (docs/operations.md, "Distributing by actor"). */
  @PrimaryColumn({ type: 'varchar', length: 200, primaryKeyConstraintName: 'pk_response_records' })
  actor: string;

  @Column({ type: 'simple-json' })
  request: ResponseRequest;

  @Column({ name: 'created_at', type: Date })
  createdAt: Date;
}

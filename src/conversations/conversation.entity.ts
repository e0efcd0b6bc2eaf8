import { Column, Entity, Index, OneToMany, PrimaryColumn, type Relation } from 'typeorm';
import type { Message } from './message.entity.js';

@Entity('conversations')
// Serves "this actor's conversations, most recent first" without a sort.
@Index('idx_conversations_actor_updated', ['actor', 'updatedAt', 'id'])
export class Conversation {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  /** Owner, e.g. `api:alice` or `telegram:42`. */
  @Column({ type: 'varchar', length: 200 })
  actor: string;

  @Column({ type: 'varchar', length: 200 })
  title: string;

  /** Highest `seq` handed out; appending bumps it inside the same transaction. */
  @Column({ name: 'last_seq', type: 'integer', default: 0 })
  lastSeq: number;

  // Set by the application, not by the database: SQLite's datetime('now') has no milliseconds.
  @Column({ name: 'created_at', type: Date })
  createdAt: Date;

  @Column({ name: 'updated_at', type: Date })
  updatedAt: Date;

  @OneToMany('Message', (m: Message) => m.conversation)
  messages?: Relation<Message[]>;
}

import { Column, Entity, Index, OneToMany, PrimaryColumn, type Relation } from 'typeorm';
import type { Message } from './message.entity.js';

/**
 * A conversation's session state: a JSON object shared by all its threads. (Typed loosely on
 * purpose: TypeORM's partial-entity types cannot follow a recursive JSON type.)
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ConversationState = Record<string, any>;

@Entity('conversations')
// Serves "this actor's conversations, most recent first" without a sort.
@Index('idx_conversations_actor_updated', ['actor', 'updatedAt', 'id'])
// The same, for one agent's conversations (and "no agent").
@Index('idx_conversations_actor_agent_updated', ['actor', 'agentId', 'updatedAt', 'id'])
// Full-text index of titles, made by the migrations (SQLite FTS5 table, PostgreSQL GIN expression index).
@Index('idx_conversations_title_fts', { synchronize: false })
// An imported conversation's origin, once per actor: importing a file again skips what is there.
@Index('uq_conversations_import_source', ['actor', 'importSource'], { unique: true })
export class Conversation {
  @PrimaryColumn({ type: 'varchar', length: 36, primaryKeyConstraintName: 'pk_conversations' })
  id: string;

  /** Owner, e.g. `api:alice` or `telegram:42`; part of the key, as in every per-actor table (ready to distribute by actor). */
  @PrimaryColumn({ type: 'varchar', length: 200, primaryKeyConstraintName: 'pk_conversations' })
  actor: string;

  @Column({ type: 'varchar', length: 200 })
  title: string;

  /** The agent whose instructions and settings the conversation's turns use; null for plain chat. */
  @Column({ name: 'agent_id', type: 'varchar', length: 36, nullable: true })
  agentId: string | null;

  /** The model this conversation's turns call, chosen from the offered models (LLM_MODELS); null: the agent's or the default. */
  @Column({ type: 'varchar', length: 200, nullable: true })
  model: string | null;

  // No foreign key to agents: an agent offered by another actor may be bound (not co-located by
  // actor), and deleting an agent detaches its conversations explicitly (ConversationsService.deleteAgent, AgentsService.eraseFor).

  @Column({ type: 'simple-json' })
  state: ConversationState;

  /** The client's own key-value pairs (at most 16; set on the OpenAI surface); null when none were given. */
  @Column({ type: 'simple-json', nullable: true })
  metadata: Record<string, string> | null;

  /** Hidden from the default listing (still searchable and readable). */
  @Column({ type: 'boolean', default: false })
  archived: boolean;

  @Column({ type: 'boolean', default: false })
  pinned: boolean;

  /** false: a temporary chat, whose turns neither read nor write long-term memories (docs/memory.md). */
  @Column({ type: 'boolean', default: true })
  memory: boolean;

  /** Where an import took it from, `<format>:<id in the file>` (e.g. `chatgpt:6701…`); null for a conversation made here. */
  @Column({ name: 'import_source', type: 'varchar', length: 300, nullable: true })
  importSource: string | null;

  /** Highest `seq` handed out; appending bumps it inside the same transaction. */
  @Column({ name: 'last_seq', type: 'integer', default: 0 })
  lastSeq: number;

  // Set by the application, not by the database: SQLite's datetime('now') has no milliseconds.
  @Column({ name: 'created_at', type: Date })
  createdAt: Date;

  @Column({ name: 'updated_at', type: Date })
  updatedAt: Date;

  /** Loaded with listings and reads (from conversation_tags); not a column. */
  tags?: string[];

  @OneToMany('Message', (m: Message) => m.conversation)
  messages?: Relation<Message[]>;
}

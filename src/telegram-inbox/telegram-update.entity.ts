import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** PostgreSQL returns bigint as a string; update ids stay well inside a safe integer. */
const asNumber = { to: (value: number) => value, from: (value: string | number) => Number(value) };

/**
 * A Telegram update the bot acknowledged, kept until it is answered so that a crash cannot
 * lose it (then, for a day, as the record that recognises Telegram sending it again).
 */
@Entity('telegram_updates')
@Index('idx_telegram_updates_pending', ['botId', 'state', 'updateId'])
@Index('idx_telegram_updates_created', ['createdAt'])
export class TelegramUpdate {
  /** Update ids are per bot (a new token starts a new series). */
  @PrimaryColumn({ name: 'bot_id', type: 'varchar', length: 32 })
  botId: string;

  @PrimaryColumn({ name: 'update_id', type: 'bigint', transformer: asNumber })
  updateId: number;

  /** The chat whose order the update keeps. */
  @Column({ name: 'chat_key', type: 'varchar', length: 32 })
  chatKey: string;

  /** The update as Telegram sent it (JSON, bounded); cleared once it is answered. */
  @Column({ type: 'text', nullable: true })
  payload: string | null;

  @Column({ type: 'varchar', length: 16 })
  state: 'pending' | 'handled';

  /** How many times an instance started handling it (a poison update is given up). */
  @Column({ type: 'integer' })
  attempts: number;

  /** The instance handling it (a random id per process). */
  @Column({ type: 'varchar', length: 36 })
  owner: string;

  /** A pending update past this is presumed abandoned by a dead instance and is taken over. */
  @Column({ name: 'lease_until', type: Date })
  leaseUntil: Date;

  /** The chat turn the update started, so a replay finishes that turn instead of starting another. */
  @Column({ name: 'conversation_id', type: 'varchar', length: 36, nullable: true })
  conversationId: string | null;

  @Column({ name: 'reply_id', type: 'varchar', length: 36, nullable: true })
  replyId: string | null;

  @Column({ name: 'created_at', type: Date })
  createdAt: Date;
}

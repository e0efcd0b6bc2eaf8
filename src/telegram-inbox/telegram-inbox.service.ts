import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { LessThan } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { DatabaseService } from '../database/database.service.js';
import { EntityRows } from '../database/sql.js';
import { InboxFullError, UpdateTooLargeError } from './telegram-inbox.errors.js';
import { TelegramUpdate } from './telegram-update.entity.js';

/** Telegram keeps an unacknowledged update for 24 hours; a record of one is kept as long. */
export const TELEGRAM_UPDATE_TTL_MS = 24 * 60 * 60 * 1000;
/** Pending updates per bot: past this, new ones are refused (not acknowledged) until some are answered. */
export const MAX_PENDING_UPDATES = 10_000;
/** Far above any real update (a 4096-character message with its entities and a quoted reply). */
export const MAX_UPDATE_BYTES = 64 * 1024;
/** An update whose handling was started this often without finishing is given up. */
export const MAX_ATTEMPTS = 5;

/** An update taken over for handling by this instance. */
interface PendingUpdate {
  readonly updateId: number;
  readonly chatKey: string;
  readonly payload: string;
}

/** The chat turn an update started. */
export interface UpdateTurn {
  readonly conversationId: string;
  readonly replyId: string;
}

/**
 * The updates the bot acknowledged to Telegram, kept in the database until they are answered.
 * Promises: an update is recorded once per bot (a second record of it is reported `known`), on
 * any instance; a pending update is handled by one live instance at a time, which holds it by
 * a lease it renews; one whose instance died is taken over once its lease passes (at start-up
 * on SQLite, where one process owns the file, at once); pending updates are bounded in count
 * and size, and every record is deleted after 24 hours.
 */
@Injectable()
export class TelegramInboxService {
  /** This process, as the owner of the updates it handles. */
  private readonly instance = randomUUID();

  constructor(
    private readonly db: DatabaseService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Records an update before it is acknowledged, owned by this instance: `new` to handle it,
   * `known` when it was recorded before. Throws (so it must not be acknowledged) when it cannot.
   */
  async record(botId: string, updateId: number, chatKey: string, payload: string): Promise<'new' | 'known'> {
    if (Buffer.byteLength(payload, 'utf8') > MAX_UPDATE_BYTES) throw new UpdateTooLargeError(MAX_UPDATE_BYTES);
    return this.db.transaction(async (em) => {
      const rows = EntityRows.of(em, TelegramUpdate);
      if (await rows.findOne(em, '"bot_id" = ? AND "update_id" = ?', [botId, updateId])) return 'known';
      const pending = await em.count(TelegramUpdate, { where: { botId, state: 'pending' } });
      if (pending >= MAX_PENDING_UPDATES) throw new InboxFullError(MAX_PENDING_UPDATES);
      const now = new Date();
      const row = Object.assign(new TelegramUpdate(), {
        botId,
        updateId,
        chatKey,
        payload,
        state: 'pending' as const,
        attempts: 1,
        owner: this.instance,
        leaseUntil: this.leaseFrom(now),
        conversationId: null,
        replyId: null,
        createdAt: now,
      });
      // Another instance may record the same update between the read and the insert.
      return (await rows.insert(em, [row], { ifAbsent: true })) === 1 ? 'new' : 'known';
    });
  }

  /**
   * Takes over up to `limit` pending updates held by other instances, oldest first: on
   * PostgreSQL those whose lease has passed; on SQLite every one, since one process owns the
   * file and their owner can only be this process's dead predecessor. Updates started
   * MAX_ATTEMPTS times are marked handled instead (`givenUp`).
   */
  async takeOver(botId: string, limit: number): Promise<{ taken: PendingUpdate[]; givenUp: number[] }> {
    if (limit <= 0) return { taken: [], givenUp: [] };
    const now = new Date();
    const anyLease = this.config.database.kind === 'sqlite';
    const candidates = await this.db.read((em) => {
      const rows = EntityRows.of(em, TelegramUpdate);
      const expired = anyLease ? '' : ` AND "lease_until" < ?`;
      const params = [botId, this.instance, ...(anyLease ? [] : [rows.value('leaseUntil', now)])];
      return rows.find(
        em,
        `"bot_id" = ? AND "state" = 'pending' AND "owner" <> ?${expired}`,
        params,
        `ORDER BY "update_id" LIMIT ${Math.trunc(limit)}`,
      );
    });
    const taken: PendingUpdate[] = [];
    const givenUp: number[] = [];
    for (const row of candidates) {
      const giveUp = row.attempts >= MAX_ATTEMPTS || row.payload === null;
      const changes: Partial<TelegramUpdate> = giveUp
        ? { state: 'handled', payload: null }
        : { owner: this.instance, leaseUntil: this.leaseFrom(now), attempts: row.attempts + 1 };
      // `attempts` changes with every take-over: of instances racing for a row, one wins.
      const won = await this.db.transaction((em) =>
        EntityRows.of(em, TelegramUpdate).update(
          em,
          changes,
          `"bot_id" = ? AND "update_id" = ? AND "state" = 'pending' AND "attempts" = ?`,
          [botId, row.updateId, row.attempts],
        ),
      );
      if (won !== 1) continue;
      if (giveUp) givenUp.push(row.updateId);
      else taken.push({ updateId: row.updateId, chatKey: row.chatKey, payload: row.payload! });
    }
    return { taken, givenUp };
  }

  /** Extends the lease of every update this instance is handling or has queued. */
  async renewLeases(botId: string): Promise<void> {
    await this.db.transaction((em) =>
      EntityRows.of(em, TelegramUpdate).update(
        em,
        { leaseUntil: this.leaseFrom(new Date()) },
        `"bot_id" = ? AND "owner" = ? AND "state" = 'pending'`,
        [botId, this.instance],
      ),
    );
  }

  /** Records the chat turn an update started (its question is stored, its reply is being generated). */
  async attachTurn(botId: string, updateId: number, turn: UpdateTurn): Promise<void> {
    await this.db.transaction((em) =>
      EntityRows.of(em, TelegramUpdate).update(em, { ...turn }, `"bot_id" = ? AND "update_id" = ?`, [botId, updateId]),
    );
  }

  /** The chat turn an earlier attempt at this update started, if any. */
  async turnOf(botId: string, updateId: number): Promise<UpdateTurn | null> {
    const row = await this.db.read((em) =>
      EntityRows.of(em, TelegramUpdate).findOne(em, '"bot_id" = ? AND "update_id" = ?', [botId, updateId]),
    );
    return row?.conversationId && row.replyId ? { conversationId: row.conversationId, replyId: row.replyId } : null;
  }

  /** The update is answered: it is never handled again, and its content is dropped. */
  async markHandled(botId: string, updateId: number): Promise<void> {
    await this.db.transaction((em) =>
      EntityRows.of(em, TelegramUpdate).update(
        em,
        { state: 'handled', payload: null },
        `"bot_id" = ? AND "update_id" = ?`,
        [botId, updateId],
      ),
    );
  }

  /** Deletes records older than 24 hours; returns how many there were, and how many of them were still pending. */
  purgeExpired(): Promise<{ deleted: number; pending: number }> {
    return this.db.transaction(async (em) => {
      const old = LessThan(new Date(Date.now() - TELEGRAM_UPDATE_TTL_MS));
      const pending = await em.count(TelegramUpdate, { where: { state: 'pending', createdAt: old } });
      const result = await em.delete(TelegramUpdate, { createdAt: old });
      return { deleted: result.affected ?? 0, pending };
    });
  }

  /** The lease of the updates being handled; renewed well before it passes (TelegramIntake). */
  get leaseMs(): number {
    return this.config.replyLeaseMs;
  }

  private leaseFrom(now: Date): Date {
    return new Date(now.getTime() + this.config.replyLeaseMs);
  }
}

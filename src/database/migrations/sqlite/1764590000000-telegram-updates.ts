import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Telegram updates kept until they are answered, so a crash loses none (SQLite). */
export class TelegramUpdates1764590000000 implements MigrationInterface {
  name = 'TelegramUpdates1764590000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "telegram_updates" (
        "bot_id" varchar(32) NOT NULL,
        "update_id" bigint NOT NULL,
        "chat_key" varchar(32) NOT NULL,
        "payload" text,
        "state" varchar(16) NOT NULL,
        "attempts" integer NOT NULL,
        "owner" varchar(36) NOT NULL,
        "lease_until" datetime NOT NULL,
        "conversation_id" varchar(36),
        "reply_id" varchar(36),
        "created_at" datetime NOT NULL,
        PRIMARY KEY ("bot_id", "update_id")
      )
    `);
    await q.query(`CREATE INDEX "idx_telegram_updates_created" ON "telegram_updates" ("created_at") `);
    await q.query(
      `CREATE INDEX "idx_telegram_updates_pending" ON "telegram_updates" ("bot_id", "state", "update_id") `,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "idx_telegram_updates_pending"`);
    await q.query(`DROP INDEX "idx_telegram_updates_created"`);
    await q.query(`DROP TABLE "telegram_updates"`);
  }
}

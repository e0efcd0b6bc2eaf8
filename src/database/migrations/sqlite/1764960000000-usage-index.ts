import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The token usage of a conversation's replies, in an index of their own (SQLite): opening a
 * conversation sums it without reading the rows, whose contents may spill onto overflow pages.
 */
export class UsageIndex1764960000000 implements MigrationInterface {
  name = 'UsageIndex1764960000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE INDEX "idx_messages_usage" ON "messages" ("conversation_id", "actor", "prompt_tokens", "completion_tokens")
        WHERE prompt_tokens IS NOT NULL OR completion_tokens IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "idx_messages_usage"`);
  }
}

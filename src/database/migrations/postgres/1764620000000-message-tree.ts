import type { MigrationInterface, QueryRunner } from 'typeorm';
import { LINK_PARENTS_SQL, versionsToSiblings } from '../message-tree.js';

/** Messages as a tree: a parent each, the active path of each thread, earlier answers as siblings (PostgreSQL). */
export class PgMessageTree1764620000000 implements MigrationInterface {
  name = 'PgMessageTree1764620000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "messages" ADD "parent_id" character varying(36)`);
    await q.query(`ALTER TABLE "messages" ADD "on_path" smallint NOT NULL DEFAULT '1'`);
    await q.query(LINK_PARENTS_SQL);
    await versionsToSiblings(q, (i) => `$${i}`);
    await q.query(`DROP INDEX "idx_messages_conversation_thread_seq"`);
    await q.query(
      `CREATE INDEX "idx_messages_path_thread" ON "messages" ("conversation_id", "thread", "seq") WHERE on_path = 1`,
    );
    await q.query(`CREATE INDEX "idx_messages_path" ON "messages" ("conversation_id", "seq") WHERE on_path = 1`);
    await q.query(`CREATE INDEX "idx_messages_parent" ON "messages" ("conversation_id", "parent_id")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM "messages" WHERE "on_path" = 0`);
    await q.query(`DROP INDEX "idx_messages_parent"`);
    await q.query(`DROP INDEX "idx_messages_path"`);
    await q.query(`DROP INDEX "idx_messages_path_thread"`);
    await q.query(
      `CREATE INDEX "idx_messages_conversation_thread_seq" ON "messages" ("conversation_id", "thread", "seq")`,
    );
    await q.query(`ALTER TABLE "messages" DROP COLUMN "on_path"`);
    await q.query(`ALTER TABLE "messages" DROP COLUMN "parent_id"`);
  }
}

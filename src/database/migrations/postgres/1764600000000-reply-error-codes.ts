import type { MigrationInterface, QueryRunner } from 'typeorm';
import { CODE_OF_STATUS_SQL, convertStoredVersions, STATUS_OF_CODE_SQL } from '../reply-error-codes.js';

/** A failed or cut reply stores a stable code (`error_code`), not an HTTP status (PostgreSQL). */
export class PgReplyErrorCodes1764600000000 implements MigrationInterface {
  name = 'PgReplyErrorCodes1764600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "messages" ADD "error_code" character varying(32)`);
    await q.query(`UPDATE "messages" SET "error_code" = ${CODE_OF_STATUS_SQL} WHERE "error_status" IS NOT NULL`);
    await q.query(`ALTER TABLE "messages" DROP COLUMN "error_status"`);
    await convertStoredVersions(q, true, (n) => `$${n}`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "messages" ADD "error_status" integer`);
    await q.query(`UPDATE "messages" SET "error_status" = ${STATUS_OF_CODE_SQL} WHERE "error_code" IS NOT NULL`);
    await q.query(`ALTER TABLE "messages" DROP COLUMN "error_code"`);
    await convertStoredVersions(q, false, (n) => `$${n}`);
  }
}

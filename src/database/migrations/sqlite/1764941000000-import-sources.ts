import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Where an imported conversation came from (`<format>:<id in the file>`, e.g. `chatgpt:6701…`),
 * unique per actor: importing the same file again skips what is already there (SQLite).
 */
export class ImportSources1764941000000 implements MigrationInterface {
  name = 'ImportSources1764941000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "conversations" ADD COLUMN "import_source" varchar(300)`);
    await q.query(`CREATE UNIQUE INDEX "uq_conversations_import_source" ON "conversations" ("actor", "import_source")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "uq_conversations_import_source"`);
    await q.query(`ALTER TABLE "conversations" DROP COLUMN "import_source"`);
  }
}

import type { MigrationInterface, QueryRunner } from 'typeorm';

const FTS_TABLES = ['messages_fts', 'memories_fts', 'conversations_fts'];
/** FTS5's default leaf (4,050 bytes) fits a 4 KiB page; its `_data` row adds a few bytes of header. */
const FTS5_DEFAULT_LEAF = 4050;
/** Room left on the page for the `_data` row's header and the page's own: a leaf of page size − 100 never overflows. */
const ROW_OVERHEAD = 100;

/**
 * Full-text leaves no larger than a database page (SQLite). FTS5 writes its index as leaves of
 * 4,050 bytes; on a file of 2 KiB pages each leaf spilled onto overflow pages, so every leaf a
 * commit wrote or a search read cost two or three pages. Leaves now fit one page; segments
 * written before keep their size until a merge rewrites them.
 */
export class FtsLeafSize1764970000000 implements MigrationInterface {
  name = 'FtsLeafSize1764970000000';

  async up(q: QueryRunner): Promise<void> {
    const [{ page_size: pageSize }] = (await q.query(`PRAGMA page_size`)) as { page_size: number }[];
    const leaf = Math.min(FTS5_DEFAULT_LEAF, pageSize - ROW_OVERHEAD);
    for (const table of FTS_TABLES) await q.query(`INSERT INTO "${table}"("${table}", rank) VALUES ('pgsz', ${leaf})`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of FTS_TABLES) {
      await q.query(`INSERT INTO "${table}"("${table}", rank) VALUES ('pgsz', ${FTS5_DEFAULT_LEAF})`);
    }
  }
}

import type { QueryRunner } from 'typeorm';

/**
 * Runs `work` (a migration that rebuilds tables) in a transaction of its own with foreign keys
 * off, since dropping a parent table would otherwise cascade-delete its children, and checks
 * every foreign key before committing. The pragma works only outside a transaction: a migration
 * using this sets `transaction = false`. TypeORM's undo opens a transaction whatever that says
 * (nothing ran in it yet), so it is closed for the pragma and opened again for TypeORM to record
 * the undo in.
 */
export async function withoutForeignKeys(q: QueryRunner, work: () => Promise<void>): Promise<void> {
  const outer = q.isTransactionActive;
  if (outer) await q.commitTransaction();
  await q.query(`PRAGMA foreign_keys = OFF`);
  await q.query(`BEGIN IMMEDIATE`);
  try {
    await work();
    const broken = (await q.query(`PRAGMA foreign_key_check`)) as unknown[];
    if (broken.length > 0)
      throw new Error(`foreign key check failed after the migration: ${JSON.stringify(broken.slice(0, 5))}`);
    await q.query(`COMMIT`);
  } catch (error) {
    await q.query(`ROLLBACK`);
    throw error;
  } finally {
    await q.query(`PRAGMA foreign_keys = ON`);
    if (outer) await q.startTransaction();
  }
}

import { DataSource } from 'typeorm';
import { DatabaseService } from '../../../src/database/database.service.js';
import { sql } from '../../../src/database/sql.js';
import { useApp } from '../../support/app-fixture.js';
import { DIALECT, type TestApp } from '../../support/test-app.js';

/**
 * DatabaseService's units of work on the real database: all of a transaction or none of it,
 * TypeORM's own transactions nested inside one, and (PostgreSQL) connections given back to the
 * pool whatever happened, so failed units do not use it up.
 */
describe('units of work', () => {
  const fixture = useApp();
  let t: TestApp;
  let db: DatabaseService;
  const filler = () => (DIALECT === 'postgres' ? "'\\x00'::bytea" : "x'00'");
  const insert = (id: number) => `INSERT INTO storage_probe (id, filler) VALUES (${id}, ${filler()})`;
  const stored = async () =>
    (await db.read((em) => sql<{ id: number }>(em, 'SELECT id FROM storage_probe ORDER BY id'))).rows.map((r) =>
      Number(r.id),
    );

  beforeAll(async () => {
    t = fixture.app;
    db = t.app.get(DatabaseService);
  });
  afterEach(async () => {
    await db.statement((em) => sql(em, 'DELETE FROM storage_probe'));
  });

  it('stores all of a transaction, or nothing of it when its work fails (the error reaches the caller)', async () => {
    await db.transaction(async (em) => {
      await sql(em, insert(1));
      await sql(em, insert(2));
    });
    const failure = new Error('the work failed');
    await expect(
      db.transaction(async (em) => {
        await sql(em, insert(3));
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(await stored()).toEqual([1, 2]);
  });

  it("nests TypeORM's own transactions inside one: they commit and roll back with it", async () => {
    await db.transaction(async (em) => {
      await em.transaction((inner) => inner.query(insert(4)));
      await sql(em, insert(5));
    });
    await expect(
      db.transaction(async (em) => {
        await em.transaction((inner) => inner.query(insert(6)));
        throw new Error('after the nested one');
      }),
    ).rejects.toThrow('after the nested one');
    expect(await stored()).toEqual([4, 5]);
  });

  it('a failed statement fails its transaction as a database error, and the connections stay usable', async () => {
    for (let i = 0; i < 25; i++) {
      const twice = db.transaction(async (em) => {
        await sql(em, insert(8));
        await sql(em, insert(8));
      });
      await expect(twice).rejects.toMatchObject({ name: 'QueryFailedError' });
      await expect(db.statement((em) => sql(em, 'SELECT no_such_column FROM storage_probe'))).rejects.toMatchObject({
        name: 'QueryFailedError',
      });
    }
    await db.transaction((em) => sql(em, insert(7)));
    expect(await stored()).toEqual([7]);
    if (DIALECT === 'postgres') {
      const pool = (
        t.app.get(DataSource).driver as unknown as {
          master: { totalCount: number; idleCount: number; waitingCount: number };
        }
      ).master;
      expect(pool.waitingCount).toBe(0);
      expect(pool.idleCount).toBe(pool.totalCount);
    }
  });
});

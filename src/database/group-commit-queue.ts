import type { DataSource, EntityManager } from 'typeorm';

interface Unit {
  readonly write: boolean;
  readonly work: (em: EntityManager) => Promise<unknown>;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

/** Transactions that share one COMMIT, at most. */
const MAX_GROUP = 64;

/**
 * The unit-of-work queue of a SQLite database, with group commit.
 *
 * better-sqlite3 gives TypeORM one connection, so units of work must run one at a time. A
 * durable COMMIT costs an fsync, which dominated a chat turn. So the write units waiting when
 * the connection frees up run back to back inside one SQLite transaction, each in a savepoint
 * of its own: a unit that throws is rolled back to its savepoint and fails alone, the others
 * commit together with one fsync. No caller hears of its unit before the COMMIT holding it is
 * durable, so what a caller is told is exactly as before; only the fsyncs per turn fall under
 * load. If the COMMIT itself fails, every unit of the group fails (none of them was stored).
 *
 * Units waiting together come from concurrent callers (a caller awaits each unit before its
 * next), so their order among themselves is free: reads (outside any transaction, so they only
 * see committed data) go first, then the writes in arrival order.
 */
export class GroupCommitQueue {
  private readonly pending: Unit[] = [];
  private draining = false;

  constructor(private readonly dataSource: DataSource) {}

  transaction<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    return this.enqueue(true, work);
  }

  read<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    return this.enqueue(false, work);
  }

  private enqueue<T>(write: boolean, work: (em: EntityManager) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ write, work, resolve: resolve as (value: unknown) => void, reject });
      if (!this.draining) {
        this.draining = true;
        void this.drain();
      }
    });
  }

  private async drain(): Promise<void> {
    try {
      while (this.pending.length > 0) {
        // Let requests whose input is ready enqueue their units first, so more of them share a COMMIT.
        await new Promise((resolve) => setImmediate(resolve));
        const units = this.pending.splice(0);
        for (const unit of units) {
          if (unit.write) continue;
          try {
            unit.resolve(await unit.work(this.dataSource.manager));
          } catch (error) {
            unit.reject(error);
          }
        }
        const writes = units.filter((unit) => unit.write);
        for (let i = 0; i < writes.length; i += MAX_GROUP) await this.commitGroup(writes.slice(i, i + MAX_GROUP));
      }
    } finally {
      this.draining = false;
    }
  }

  private async commitGroup(group: readonly Unit[]): Promise<void> {
    const outcomes: Array<{ ok: boolean; value: unknown }> = [];
    try {
      await this.dataSource.transaction(async (em) => {
        for (const unit of group) {
          // A lone unit needs no savepoint: its failure rolls the whole transaction back.
          if (group.length === 1) {
            outcomes.push({ ok: true, value: await unit.work(em) });
            continue;
          }
          await em.query('SAVEPOINT unit');
          try {
            const value = await unit.work(em);
            await em.query('RELEASE unit');
            outcomes.push({ ok: true, value });
          } catch (error) {
            // Should SQLite have rolled the whole transaction back (a full disk, say), this throws and the group fails.
            await em.query('ROLLBACK TO unit');
            await em.query('RELEASE unit');
            outcomes.push({ ok: false, value: error });
          }
        }
      });
    } catch (error) {
      // Nothing of the group was stored: a unit that failed on its own keeps its error, the others get the group's.
      group.forEach((unit, i) => unit.reject(outcomes[i] && !outcomes[i].ok ? outcomes[i].value : error));
      return;
    }
    group.forEach((unit, i) => (outcomes[i].ok ? unit.resolve(outcomes[i].value) : unit.reject(outcomes[i].value)));
  }
}

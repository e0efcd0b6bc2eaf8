import type { DataSource, EntityManager } from 'typeorm';

/**
 * The one place that asks which database is underneath. Everything dialect-specific (row
 * locks, placeholders, date formatting) is decided here or next to a call of `isPostgres`,
 * so the two dialects stay side by side instead of scattered `options.type` checks.
 */
export function isPostgres(on: EntityManager | DataSource): boolean {
  const dataSource = 'dataSource' in on ? on.dataSource : on;
  return dataSource.options.type === 'postgres';
}

/**
 * TypeORM `find` options that lock the rows read, on PostgreSQL; nothing on SQLite, where the
 * unit-of-work queue already serializes every writer.
 */
export function rowLock(em: EntityManager): { lock?: { mode: 'pessimistic_write' } } {
  return isPostgres(em) ? { lock: { mode: 'pessimistic_write' } } : {};
}

/** `FOR UPDATE` where the database has row locks (on SQLite the unit-of-work queue serializes writers). */
export function forUpdate(em: EntityManager): string {
  return isPostgres(em) ? 'FOR UPDATE' : '';
}

/** The UTC day (`YYYY-MM-DD`) of a timestamp column, as SQL. */
export function utcDaySql(em: EntityManager, column: string): string {
  return isPostgres(em) ? `to_char(${column}, 'YYYY-MM-DD')` : `substr(${column}, 1, 10)`;
}

/** A datetime read by a raw query: SQLite keeps it as UTC text (as TypeORM writes it), PostgreSQL hands out a Date. */
export function storedDate(value: string | Date): Date {
  return value instanceof Date ? value : new Date(`${value.replace(' ', 'T')}Z`);
}

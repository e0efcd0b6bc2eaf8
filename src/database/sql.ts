import {
  type DataSource,
  type EntityManager,
  type EntityMetadata,
  type EntityTarget,
  type ObjectLiteral,
  QueryFailedError,
  QueryRunnerAlreadyReleasedError,
} from 'typeorm';
import { isPostgres } from './dialect.js';

/** A column of an entity's metadata, by the public API's types. */
type ColumnMetadata = EntityMetadata['columns'][number];

/**
 * Constant SQL with bound parameters, for the statements every chat turn runs.
 *
 * TypeORM's query builder renders each statement again on every call, inlines some values
 * (numbers) into its text, so SQLite prepares it again, and maps rows back through its
 * generic alias machinery: on a turn's path, most of its CPU time. Statements here are written
 * once, with `?` placeholders (numbered `$n` on PostgreSQL), so each is prepared once, and
 * rows go through the driver's own per-column conversions: a value reads and writes exactly
 * as it does through the entity manager.
 */
interface SqlResult<R> {
  readonly rows: R[];
  /** Rows changed by an INSERT/UPDATE/DELETE (the rows returned, with RETURNING on SQLite). */
  readonly affected: number;
}

/** Runs one statement in `em`'s transaction (or on its own when `em` has none). */
export async function sql<R = Record<string, unknown>>(
  em: EntityManager,
  text: string,
  params: readonly unknown[] = [],
): Promise<SqlResult<R>> {
  const postgres = isPostgres(em);
  const runner = em.queryRunner ?? em.connection.createQueryRunner();
  try {
    if (postgres) {
      // As TypeORM's own query does: a released runner's connection may serve another transaction by now.
      if (runner.isReleased) throw new QueryRunnerAlreadyReleasedError();
      return await onPostgres<R>((await runner.connect()) as PgClient, text, params);
    }
    const result = await runner.query(text, [...params], true);
    const rows = (result.records ?? []) as R[];
    return { rows, affected: result.affected ?? rows.length };
  } finally {
    if (!em.queryRunner) await runner.release();
  }
}

/** The part of a `pg` client used here. */
interface PgClient {
  query(config: {
    name?: string;
    text: string;
    values: unknown[];
  }): Promise<{ rows: unknown[]; rowCount: number | null }>;
}

/**
 * PostgreSQL: the statement straight on the connection's `pg` client, as a named prepared
 * statement, so each connection parses (and, once PostgreSQL settles on a generic plan, plans)
 * it once instead of on every call; TypeORM's query runner would send it unnamed. Errors are
 * wrapped as TypeORM wraps them, so callers see the same QueryFailedError.
 */
async function onPostgres<R>(client: PgClient, text: string, params: readonly unknown[]): Promise<SqlResult<R>> {
  const statement = prepared(text);
  try {
    const result = await client.query({ ...statement, values: [...params] });
    const rows = result.rows as R[];
    return { rows, affected: result.rowCount ?? rows.length };
  } catch (error) {
    throw new QueryFailedError(statement.text, [...params], error as Error);
  }
}

interface Prepared {
  readonly name?: string;
  readonly text: string;
}

const preparedCache = new Map<string, Prepared>();
/**
 * Statements named at most: each named one stays prepared on every connection that ran it. The
 * texts are a fixed set in practice; past the bound (texts built from data, such as a batch
 * INSERT of n rows) a statement is sent unnamed, parsed on each call as before.
 */
const MAX_NAMED = 500;

function prepared(text: string): Prepared {
  let statement = preparedCache.get(text);
  if (statement === undefined) {
    const numberedText = numbered(text);
    statement =
      preparedCache.size < MAX_NAMED
        ? { name: `cm_${preparedCache.size}`, text: numberedText }
        : { text: numberedText };
    if (statement.name !== undefined) preparedCache.set(text, statement);
  }
  return statement;
}

const numberedCache = new Map<string, string>();

/** `?` placeholders as PostgreSQL's `$1, $2, ...` (the statements here never hold a literal `?`). */
function numbered(text: string): string {
  let out = numberedCache.get(text);
  if (out === undefined) {
    let n = 0;
    out = text.replace(/\?/g, () => `$${++n}`);
    // The texts are a fixed set in practice; the bound only guards against a caller building them from data.
    if (numberedCache.size >= 1_000) numberedCache.clear();
    numberedCache.set(text, out);
  }
  return out;
}

/**
 * Converts between an entity and its table's rows with the driver's column conversions
 * (dates, booleans, simple-json), and spells its column lists.
 */
export class EntityRows<T extends ObjectLiteral> {
  /** `"id", "actor", ...`: every column, in the entity's order. */
  readonly columnList: string;
  private readonly byProperty = new Map<string, ColumnMetadata>();
  private readonly prefixedLists = new Map<string, string>();

  private constructor(
    private readonly metadata: EntityMetadata,
    private readonly dataSource: DataSource,
  ) {
    for (const column of metadata.columns) this.byProperty.set(column.propertyName, column);
    this.columnList = metadata.columns.map((c) => `"${c.databaseName}"`).join(', ');
  }

  private static readonly cache = new WeakMap<DataSource, Map<unknown, EntityRows<ObjectLiteral>>>();

  static of<T extends ObjectLiteral>(em: EntityManager, target: EntityTarget<T>): EntityRows<T> {
    let forSource = EntityRows.cache.get(em.connection);
    if (!forSource) EntityRows.cache.set(em.connection, (forSource = new Map()));
    let rows = forSource.get(target);
    if (!rows) forSource.set(target, (rows = new EntityRows(em.connection.getMetadata(target), em.connection)));
    return rows as unknown as EntityRows<T>;
  }

  /** The entity a selected row (all of `columnList`, or of `prefixedColumnList(…, prefix)`) stands for. */
  hydrate(row: Record<string, unknown>, prefix = ''): T {
    const entity = this.metadata.create() as T;
    const driver = this.dataSource.driver;
    for (const column of this.metadata.columns) {
      (entity as Record<string, unknown>)[column.propertyName] = driver.prepareHydratedValue(
        row[prefix + column.databaseName],
        column,
      );
    }
    return entity;
  }

  /**
   * `"t"."id" AS "p_id", ...`: every column of the table as `alias`, renamed with `prefix`, for
   * one statement that reads several tables' rows side by side (hydrate with the same prefix).
   */
  prefixedColumnList(alias: string, prefix: string): string {
    // Spelled once per alias and prefix: statements of every turn use it.
    const key = `${alias}\u0000${prefix}`;
    let list = this.prefixedLists.get(key);
    if (list === undefined) {
      list = this.metadata.columns
        .map((c) => `"${alias}"."${c.databaseName}" AS "${prefix}${c.databaseName}"`)
        .join(', ');
      this.prefixedLists.set(key, list);
    }
    return list;
  }

  /** The table's name, for statements that join it. */
  get table(): string {
    return this.metadata.tableName;
  }

  /**
   * The entities of the rows matching `where` (a constant SQL condition, with its parameters);
   * `rest` follows the condition (ORDER BY, LIMIT, FOR UPDATE).
   */
  async find(em: EntityManager, where: string, params: readonly unknown[], rest = ''): Promise<T[]> {
    const result = await sql(
      em,
      `SELECT ${this.columnList} FROM "${this.metadata.tableName}" WHERE ${where}${rest ? ` ${rest}` : ''}`,
      params,
    );
    return result.rows.map((row) => this.hydrate(row));
  }

  async findOne(em: EntityManager, where: string, params: readonly unknown[], rest = ''): Promise<T | null> {
    return (await this.find(em, where, params, rest))[0] ?? null;
  }

  /** A stored value of one property as the entity holds it (the driver's conversion of that column). */
  read(property: keyof T & string, stored: unknown): unknown {
    return this.dataSource.driver.prepareHydratedValue(stored, this.columnOf(property));
  }

  /** The column a property is stored in. */
  column(property: keyof T & string): string {
    return this.columnOf(property).databaseName;
  }

  /** A property's value as the database stores it, to bind as a parameter. */
  value(property: keyof T & string, value: unknown): unknown {
    return this.dataSource.driver.preparePersistentValue(value, this.columnOf(property));
  }

  /**
   * INSERT of whole entities (every column given), one row each. With `ifAbsent`, a row whose
   * key exists is skipped (ON CONFLICT DO NOTHING). Returns how many rows were inserted.
   */
  async insert(em: EntityManager, entities: readonly T[], options: { ifAbsent?: boolean } = {}): Promise<number> {
    if (entities.length === 0) return 0;
    const { text, params } = this.insertStatement(entities);
    const conflict = options.ifAbsent ? ' ON CONFLICT DO NOTHING' : '';
    const result = await sql(em, `${text}${conflict}`, params);
    return result.affected;
  }

  /**
   * The INSERT of whole entities as text and parameters, for a caller that wraps it in a larger
   * statement. `computed`: properties whose value is an SQL expression instead (given the row's
   * index), bound to nothing.
   */
  insertStatement(
    entities: readonly T[],
    computed: Partial<Record<keyof T & string, (index: number) => string>> = {},
  ): { text: string; params: unknown[] } {
    const columns = this.metadata.columns;
    const params: unknown[] = [];
    const rows = entities.map((entity, index) => {
      const values = columns.map((column) => {
        const expression = computed[column.propertyName as keyof T & string];
        if (expression) return expression(index);
        params.push(
          this.value(
            column.propertyName,
            (entity as Record<string, unknown>)[column.propertyName] ?? defaultOf(column),
          ),
        );
        return '?';
      });
      return `(${values.join(', ')})`;
    });
    return { text: `INSERT INTO "${this.metadata.tableName}" (${this.columnList}) VALUES ${rows.join(', ')}`, params };
  }

  /**
   * UPDATE of some properties of the rows matching `where` (a constant SQL condition with its
   * own parameters). Returns how many rows changed. `notify` (PostgreSQL): in the same
   * statement, NOTIFY that channel of each changed row's id (delivered once it commits), instead
   * of a statement of its own; the table must have an `id` column.
   */
  async update(
    em: EntityManager,
    changes: Partial<T>,
    where: string,
    whereParams: readonly unknown[],
    notify?: string,
  ): Promise<number> {
    const properties = Object.keys(changes).filter((p) => (changes as Record<string, unknown>)[p] !== undefined);
    if (properties.length === 0) return 0;
    const set = properties.map((p) => `"${this.column(p)}" = ?`).join(', ');
    const params = properties.map((p) => this.value(p, (changes as Record<string, unknown>)[p]));
    const update = `UPDATE "${this.metadata.tableName}" SET ${set} WHERE ${where}`;
    if (notify !== undefined && isPostgres(em)) {
      const result = await sql(
        em,
        `WITH changed AS (${update} RETURNING "id") SELECT pg_notify(?, "id") FROM changed`,
        [...params, ...whereParams, notify],
      );
      return result.rows.length;
    }
    const result = await sql(em, update, [...params, ...whereParams]);
    return result.affected;
  }

  private columnOf(property: string): ColumnMetadata {
    const column = this.byProperty.get(property);
    if (!column) throw new Error(`${this.metadata.name} has no column for ${property}`);
    return column;
  }
}

/** What an insert writes for a property left undefined: the column's literal default (a column added later), else null. */
function defaultOf(column: ColumnMetadata): unknown {
  return column.default === undefined || typeof column.default === 'function' ? null : column.default;
}

import pg from 'pg';

let configured = false;

/**
 * Timestamps are `timestamp` (without time zone) columns holding UTC, on every instance
 * whatever its TZ: dates go to the server as UTC and come back read as UTC. Process-wide
 * settings of the `pg` driver, made once, before the first connection.
 */
export function configurePgDriver(): void {
  if (configured) return;
  configured = true;
  pg.defaults.parseInputDatesAsUTC = true;
  const TIMESTAMP_OID = 1114;
  pg.types.setTypeParser(TIMESTAMP_OID, (text) => new Date(`${text.replace(' ', 'T')}Z`));
}

/** Any constant shared by all instances: the key of the advisory lock taken while migrating. */
const MIGRATION_LOCK_KEY = 724_315_001;

/**
 * Prepares a PostgreSQL database for `start` (which runs the migrations): creates the
 * configured schema if it is missing (only then, so a user without CREATE on the database can
 * use an existing one), and holds an advisory lock meanwhile, so instances started together
 * migrate one after the other instead of racing.
 */
export async function withMigrationLock<T>(
  url: string,
  schema: string | undefined,
  start: () => Promise<T>,
): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    if (schema) {
      const found = await client.query('SELECT 1 FROM information_schema.schemata WHERE schema_name = $1', [schema]);
      if (found.rowCount === 0) await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    }
    return await start();
  } finally {
    // Ending the session releases the lock too; unlock explicitly to hand over at once.
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    await client.end();
  }
}

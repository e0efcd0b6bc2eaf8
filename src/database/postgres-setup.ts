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

/** Creates the configured schema if it does not exist yet (a fresh database or a test run). */
export async function ensureSchema(url: string, schema: string | undefined): Promise<void> {
  if (!schema) return;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
  } finally {
    await client.end();
  }
}

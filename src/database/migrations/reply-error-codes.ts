import type { QueryRunner } from 'typeorm';

/*
 * Shared by the SQLite and PostgreSQL migrations that turn the HTTP statuses stored with failed
 * and cut replies (`messages.error_status`) into stable codes (`messages.error_code`), and back.
 * Frozen with those migrations: it describes the data as they found it, not today's code.
 */

/** The messages a reply whose generator was gone was closed with (by a lease, an export, a fork), in every wording used. */
const INTERRUPTED_SQL = `(
  "error_message" LIKE 'The reply was interrupted%'
  OR "error_message" LIKE 'The reply was still being generated when the conversation was %'
)`;
const INTERRUPTED = /^The reply was (interrupted|still being generated when the conversation was )/;

/**
 * The code of a stored status: a cut reply was cut by length (413) or time (504); a failed one
 * timed out (504), was interrupted (502 with the interrupted message), or else the model failed.
 */
export const CODE_OF_STATUS_SQL = `CASE
  WHEN "error_status" IS NULL THEN NULL
  WHEN "status" = 'truncated' THEN CASE WHEN "error_status" = 413 THEN 'reply_too_long' ELSE 'reply_timeout' END
  WHEN "error_status" = 504 THEN 'model_timeout'
  WHEN ${INTERRUPTED_SQL} THEN 'interrupted'
  ELSE 'model_unavailable' END`;

/** Back: the status the API showed for each code. */
export const STATUS_OF_CODE_SQL = `CASE "error_code"
  WHEN 'reply_too_long' THEN 413
  WHEN 'reply_timeout' THEN 504
  WHEN 'model_timeout' THEN 504
  WHEN 'interrupted' THEN 502
  WHEN 'model_unavailable' THEN 502
  ELSE NULL END`;

interface StoredVersion {
  status?: string;
  error?: { statusCode?: number; code?: string; message?: string } | null;
}

function codeOf(status: number, replyStatus: string | undefined, message: string): string {
  if (replyStatus === 'truncated') return status === 413 ? 'reply_too_long' : 'reply_timeout';
  if (status === 504) return 'model_timeout';
  return INTERRUPTED.test(message) ? 'interrupted' : 'model_unavailable';
}

const STATUS_OF_CODE: Record<string, number> = {
  reply_too_long: 413,
  reply_timeout: 504,
  model_timeout: 504,
  interrupted: 502,
  model_unavailable: 502,
};

/** A version's `error` as a code (`toCodes`) or as a status (back); null when nothing changes. */
function convertVersions(json: string, toCodes: boolean): string | null {
  const versions = JSON.parse(json) as StoredVersion[];
  let changed = false;
  for (const v of versions) {
    const e = v.error;
    if (!e) continue;
    if (toCodes && typeof e.statusCode === 'number') {
      v.error = { code: codeOf(e.statusCode, v.status, e.message ?? ''), message: e.message ?? '' };
      changed = true;
    } else if (!toCodes && typeof e.code === 'string') {
      v.error = { statusCode: STATUS_OF_CODE[e.code] ?? 502, message: e.message ?? '' };
      changed = true;
    }
  }
  return changed ? JSON.stringify(versions) : null;
}

const PAGE = 500;

/**
 * Rewrites the errors kept in `messages.versions` (JSON), a page of rows at a time so memory
 * stays bounded. `param(n)` is the dialect's placeholder (`?` or `$n`).
 */
export async function convertStoredVersions(
  q: QueryRunner,
  toCodes: boolean,
  param: (n: number) => string,
): Promise<void> {
  let after = '';
  for (;;) {
    const rows = (await q.query(
      `
        SELECT "id", "versions"
          FROM "messages"
          WHERE "versions" IS NOT NULL AND "versions" LIKE '%"error":{%' AND "id" > ${param(1)}
          ORDER BY "id"
          LIMIT ${PAGE}
      `,
      [after],
    )) as Array<{ id: string; versions: string }>;
    for (const row of rows) {
      const versions = convertVersions(row.versions, toCodes);
      if (versions !== null)
        await q.query(`UPDATE "messages" SET "versions" = ${param(1)} WHERE "id" = ${param(2)}`, [versions, row.id]);
    }
    if (rows.length < PAGE) return;
    after = rows[rows.length - 1].id;
  }
}

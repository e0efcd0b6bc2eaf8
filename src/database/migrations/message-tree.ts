import { randomUUID } from 'node:crypto';
import type { QueryRunner } from 'typeorm';

/*
 * Shared by the SQLite and PostgreSQL migrations that make messages a tree: every message gets
 * its parent (the message before it in its thread, for the linear history stored so far) and
 * whether it is on its thread's active path; every answer kept in `versions` becomes a sibling
 * reply off the path. Frozen with those migrations: it describes the data as they found it.
 */

/** The message before each one in its thread becomes its parent (one index seek per message). */
export const LINK_PARENTS_SQL = `
  UPDATE "messages" SET "parent_id" = (
    SELECT p."id"
      FROM "messages" p
      WHERE p."conversation_id" = "messages"."conversation_id"
        AND p."thread" = "messages"."thread"
        AND p."seq" < "messages"."seq"
      ORDER BY p."seq" DESC
      LIMIT 1
  )
`;

interface StoredVersion {
  content?: string;
  status?: string;
  model?: string | null;
  promptTokens?: number | null;
  completionTokens?: number | null;
  error?: { code?: string; message?: string } | null;
  createdAt?: string;
}

const PAGE = 500;

/** A stored time as both databases keep it (UTC, `YYYY-MM-DD HH:MM:SS.mmm`); now for a version without a readable one. */
function utcTimestamp(iso: string | undefined): string {
  const date = new Date(iso ?? Date.now());
  return (Number.isNaN(date.getTime()) ? new Date() : date).toISOString().replace('T', ' ').replace('Z', '');
}

/**
 * Each answer of `versions` as a reply of its own: a sibling of the message that kept it (same
 * parent, same thread), off the active path, with the next seq numbers of its conversation.
 * In pages, so memory stays bounded on any database.
 */
export async function versionsToSiblings(q: QueryRunner, param: (i: number) => string): Promise<void> {
  for (;;) {
    const rows = (await q.query(
      `SELECT "id", "conversation_id", "thread", "parent_id", "versions" FROM "messages"
        WHERE "versions" IS NOT NULL AND "versions" <> '[]' ORDER BY "id" LIMIT ${PAGE}`,
    )) as Array<{ id: string; conversation_id: string; thread: string; parent_id: string | null; versions: string }>;
    for (const row of rows) {
      let versions: StoredVersion[] = [];
      try {
        const parsed: unknown = JSON.parse(row.versions);
        if (Array.isArray(parsed)) versions = parsed as StoredVersion[];
      } catch {
        // Unreadable: nothing to keep; the column is cleared like the others.
      }
      if (versions.length > 0) {
        const bumped = (await q.query(
          `
            UPDATE "conversations"
              SET "last_seq" = "last_seq" + ${versions.length}
              WHERE "id" = ${param(1)}
              RETURNING "last_seq"
          `,
          [row.conversation_id],
        )) as Array<{ last_seq: number }> | [Array<{ last_seq: number }>, number];
        const returned = Array.isArray(bumped[0])
          ? (bumped[0] as Array<{ last_seq: number }>)
          : (bumped as Array<{ last_seq: number }>);
        let seq = Number(returned[0].last_seq) - versions.length;
        for (const v of versions) {
          seq++;
          const values = [
            randomUUID(),
            row.conversation_id,
            row.thread,
            seq,
            'assistant',
            typeof v.content === 'string' ? v.content : '',
            typeof v.status === 'string' ? v.status : 'complete',
            v.model ?? null,
            v.promptTokens ?? null,
            v.completionTokens ?? null,
            v.error?.code ?? null,
            v.error ? (v.error.message ?? '') : null,
            utcTimestamp(v.createdAt),
            row.parent_id,
          ];
          await q.query(
            `
              INSERT INTO "messages" (
                "id", "conversation_id", "thread", "seq", "role", "content", "status", "model", "prompt_tokens",
                "completion_tokens", "error_code", "error_message", "created_at", "parent_id", "on_path"
              )
                VALUES (${values.map((_, i) => param(i + 1)).join(', ')}, 0)
            `,
            values,
          );
        }
      }
      await q.query(`UPDATE "messages" SET "versions" = NULL WHERE "id" = ${param(1)}`, [row.id]);
    }
    if (rows.length < PAGE) return;
  }
}

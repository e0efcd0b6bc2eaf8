// Fast raw-SQL seeding (one transaction per call). Only the bench's set-up uses raw SQL; every
// measured operation goes through the service's own classes.
//
// The rows are clones of a template conversation that the service itself wrote (a real chat
// turn), with only the keys, owner, order and timestamps changed. Every column the current
// schema has, and every per-conversation row in other tables (e.g. threads), is therefore
// exactly what the service would have written, whatever migrations were added since.
import { randomUUID } from 'node:crypto';

/** How TypeORM stores a Date in SQLite: UTC "YYYY-MM-DD HH:MM:SS.SSS". */
export const sqlDate = (ms) => new Date(ms).toISOString().replace('T', ' ').replace('Z', '');

export const SEED_USER = 'Could you remind me what we said about the release schedule?';

/** A UUID v4-shaped string made by SQLite, for rows cloned many at a time. */
const SQL_UUID =
  "lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-' || " +
  "substr('89ab', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6)))";

const columnsOf = (db, table) =>
  db
    .prepare(`SELECT name FROM pragma_table_info(?)`)
    .all(table)
    .map((c) => c.name);
const q = (name) => `"${name.replaceAll('"', '""')}"`;

/** `INSERT INTO table (all columns) SELECT <override or same column> FROM table WHERE <where>`. */
function cloneStatement(db, table, overrides, where) {
  const cols = columnsOf(db, table);
  const select = cols.map((c) => (c in overrides ? overrides[c] : q(c)));
  return db.prepare(
    `INSERT INTO ${q(table)} (${cols.map(q).join(', ')}) SELECT ${select.join(', ')} FROM ${q(table)} WHERE ${where}`,
  );
}

/**
 * Reads the template conversation `templateId` (written by the service: one user message and
 * one assistant reply) and returns a seeder. Call `done()` to delete the template afterwards.
 */
export function templateSeeder(db, templateId) {
  const messages = db.prepare('SELECT id, role FROM messages WHERE conversation_id = ? ORDER BY seq').all(templateId);
  const userId = messages.find((m) => m.role === 'user')?.id;
  const assistantId = messages.find((m) => m.role === 'assistant')?.id;
  if (!userId || !assistantId) throw new Error('the template conversation needs a user message and a reply');

  const conversation = cloneStatement(
    db,
    'conversations',
    {
      id: '@id',
      actor: '@actor',
      title: '@title',
      last_seq: '@lastSeq',
      created_at: '@createdAt',
      updated_at: '@updatedAt',
    },
    'id = @template',
  );
  // A row of a conversation carries its actor (every key includes it), where the schema has the column.
  const withActor = (table) => (columnsOf(db, table).includes('actor') ? { actor: '@actor' } : {});
  // Since messages form a tree, each clone follows the one before it (or, off the active path, sits beside it).
  const tree = columnsOf(db, 'messages').includes('parent_id');
  const message = cloneStatement(
    db,
    'messages',
    {
      id: '@id',
      conversation_id: '@conversationId',
      seq: '@seq',
      created_at: '@createdAt',
      ...(tree ? { parent_id: '@parentId', on_path: '@onPath' } : {}),
      ...withActor('messages'),
    },
    'id = @templateMessage',
  );
  // Other per-conversation rows (threads, ...): same rows, new conversation id (and a new id if they have one).
  const children = db
    .prepare(
      `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT IN ('messages', 'conversations') AND name NOT LIKE 'sqlite_%'`,
    )
    .all()
    .map((t) => t.name)
    .filter((t) => columnsOf(db, t).includes('conversation_id'))
    .map((t) =>
      cloneStatement(
        db,
        t,
        {
          conversation_id: '@conversationId',
          ...(columnsOf(db, t).includes('id') ? { id: SQL_UUID } : {}),
          ...withActor(t),
        },
        'conversation_id = @template',
      ),
    );

  return {
    /**
     * Inserts `conversations` conversations of `length` messages each for `actor` (alternating
     * user/assistant, seq 1..length, last_seq = length) and returns their ids. `updated_at`
     * goes back one millisecond per conversation from `nowMs`, so each is distinct.
     */
    seed({ actor, conversations, length, nowMs = Date.now() - 60_000, branchEvery = 0 }) {
      const ids = [];
      db.transaction(() => {
        for (let c = 0; c < conversations; c++) {
          const id = randomUUID();
          const updated = nowMs - c;
          const created = updated - length * 1000;
          conversation.run({
            id,
            actor,
            title: `Seeded conversation ${c}`,
            lastSeq: length,
            createdAt: sqlDate(created),
            updatedAt: sqlDate(updated),
            template: templateId,
          });
          for (const child of children) child.run({ conversationId: id, actor, template: templateId });
          // `branchEvery`: every so many answers on the path get an earlier answer beside them (a branch point off the path).
          let parentId = null;
          let question = null;
          let answers = 0;
          for (let seq = 1, onPath = 0; seq <= length; seq++) {
            const rowId = randomUUID();
            const sibling =
              branchEvery > 0 &&
              onPath % 2 === 0 &&
              onPath > 0 &&
              answers > 0 &&
              answers % branchEvery === 0 &&
              question &&
              parentId !== question;
            const role = sibling ? 'assistant' : onPath % 2 === 0 ? 'user' : 'assistant';
            message.run({
              id: rowId,
              conversationId: id,
              seq,
              createdAt: sqlDate(created + seq * 1000 - 1000),
              templateMessage: role === 'user' ? userId : assistantId,
              actor,
              ...(tree ? { parentId: sibling ? question : parentId, onPath: sibling ? 0 : 1 } : {}),
            });
            if (sibling) {
              question = null;
              continue;
            }
            if (role === 'user') question = rowId;
            else answers++;
            parentId = rowId;
            onPath++;
          }
          ids.push(id);
        }
      })();
      return ids;
    },
    done() {
      db.pragma('foreign_keys = ON');
      db.prepare('DELETE FROM messages WHERE conversation_id = ?').run(templateId);
      db.prepare('DELETE FROM conversations WHERE id = ?').run(templateId); // children go by cascade
    },
  };
}

/** Bytes of the database: cell payload, used space (payload + b-tree overhead), and allocated pages. */
export function storageBytes(db) {
  const stat = db.prepare('SELECT sum(payload) AS payload, sum(pgsize - unused) AS used FROM dbstat').get();
  const pageSize = db.pragma('page_size', { simple: true });
  const pages = db.pragma('page_count', { simple: true }) - db.pragma('freelist_count', { simple: true });
  return { payload: stat.payload, used: stat.used, allocated: pages * pageSize, pageSize };
}

import { isAbsolute, resolve } from 'node:path';
import { ConfigError } from './config-error.js';

export type DatabaseTarget =
  | { readonly kind: 'sqlite'; readonly path: string }
  | {
      readonly kind: 'postgres';
      /** Connection URL without the `schema` parameter (it may hold a password: never log it). */
      readonly url: string;
      /** Where the tables live (`?schema=NAME`); created at start when missing. Default `public`. */
      readonly schema: string | undefined;
    };

/**
 * `sqlite:data/chat.sqlite` (relative to the working directory), `sqlite:/abs/path.sqlite`,
 * `sqlite::memory:`, or `postgres://user:pass@host:5432/db[?schema=NAME]`.
 */
export function parseDatabaseUrl(url: string): DatabaseTarget {
  if (url.startsWith('sqlite:')) {
    // Accept the URL-ish spelling sqlite:///abs/path as well as sqlite:relative/path.
    const rest = url.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
    if (!rest) throw new ConfigError('DATABASE_URL "sqlite:" needs a file path, e.g. sqlite:data/chat.sqlite');
    if (rest === ':memory:') return { kind: 'sqlite', path: rest };
    return { kind: 'sqlite', path: isAbsolute(rest) ? rest : resolve(process.cwd(), rest) };
  }
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      // The URL may hold a password: the message does not repeat it.
      throw new ConfigError('DATABASE_URL is not a valid postgres:// URL');
    }
    const schema = parsed.searchParams.get('schema') ?? undefined;
    if (schema !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) {
      throw new ConfigError(`DATABASE_URL schema "${schema}" must be a lower-case identifier ([a-z_][a-z0-9_]*)`);
    }
    parsed.searchParams.delete('schema');
    return { kind: 'postgres', url: parsed.toString(), schema };
  }
  const scheme = url.split(':')[0];
  throw new ConfigError(`DATABASE_URL scheme "${scheme}:" is not supported; use sqlite:<path> or postgres://…`);
}

/** Where reads that may be a little behind go (DATABASE_READ_URL), and how far behind they may be. */
export interface ReadReplicaTargets {
  /** Connection URLs of PostgreSQL standbys of the primary (they may hold passwords: never log them). */
  readonly urls: readonly string[];
  /** A replica further behind the primary than this is not read from. */
  readonly maxLagMs: number;
}

/**
 * DATABASE_READ_URL: one or more `postgres://` URLs, comma-separated, of streaming standbys of
 * DATABASE_URL. Their tables are the primary's, so the schema is the primary's too.
 */
export function parseReadUrls(raw: string | undefined, primary: DatabaseTarget, maxLagMs: number): ReadReplicaTargets {
  const urls = (raw ?? '')
    .split(',')
    .map((u) => u.trim())
    .filter((u) => u !== '');
  if (urls.length === 0) return { urls: [], maxLagMs };
  if (primary.kind !== 'postgres')
    throw new ConfigError('DATABASE_READ_URL needs a postgres:// DATABASE_URL: replicas are PostgreSQL standbys');
  if (urls.length > 16) throw new ConfigError(`DATABASE_READ_URL names ${urls.length} replicas; at most 16`);
  return {
    urls: urls.map((url, i) => {
      let target: DatabaseTarget;
      try {
        target = parseDatabaseUrl(url);
      } catch {
        throw new ConfigError(`DATABASE_READ_URL entry ${i + 1} is not a valid postgres:// URL`);
      }
      if (target.kind !== 'postgres')
        throw new ConfigError(`DATABASE_READ_URL entry ${i + 1} must be a postgres:// URL`);
      if (target.schema !== undefined && target.schema !== primary.schema) {
        throw new ConfigError(
          `DATABASE_READ_URL entry ${i + 1} names schema "${target.schema}"; a replica has the primary's schema, leave it out`,
        );
      }
      return target.url;
    }),
    maxLagMs,
  };
}

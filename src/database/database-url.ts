import { isAbsolute, resolve } from 'node:path';
import { ConfigError } from '../config/app-config.js';

export type DatabaseTarget = { readonly kind: 'sqlite'; readonly path: string };

/**
 * `sqlite:data/chat.sqlite` (relative to the working directory), `sqlite:/abs/path.sqlite`
 * or `sqlite::memory:`. Other schemes are refused with a clear message.
 */
export function parseDatabaseUrl(url: string): DatabaseTarget {
  if (url.startsWith('sqlite:')) {
    // Accept the URL-ish spelling sqlite:///abs/path as well as sqlite:relative/path.
    const rest = url.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
    if (!rest) throw new ConfigError('DATABASE_URL "sqlite:" needs a file path, e.g. sqlite:data/chat.sqlite');
    if (rest === ':memory:') return { kind: 'sqlite', path: rest };
    return { kind: 'sqlite', path: isAbsolute(rest) ? rest : resolve(process.cwd(), rest) };
  }
  const scheme = url.split(':')[0];
  throw new ConfigError(`DATABASE_URL scheme "${scheme}:" is not supported; use sqlite:<path>`);
}

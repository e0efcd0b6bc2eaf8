import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);

/**
 * A PostgreSQL primary and a streaming standby of it (`pg_basebackup -R`), each a throwaway
 * cluster of the local PostgreSQL binaries on a free port, for the read-replica tests. As root
 * (CI), the clusters run as the `postgres` user, since initdb refuses root.
 */
export interface PrimaryAndStandby {
  readonly primaryUrl: string;
  readonly standbyUrl: string;
  /** Runs SQL on the primary or the standby (a client of its own each time). */
  query(on: 'primary' | 'standby', sql: string, params?: unknown[]): Promise<pg.QueryResult>;
  stopStandby(): Promise<void>;
  startStandby(): Promise<void>;
  remove(): Promise<void>;
}

/** Where the binaries are (Debian's layout), or null when PostgreSQL is not installed. */
export function postgresBinaries(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'pg_basebackup')))
    .sort((a, b) => Number(a) - Number(b));
  return versions.length ? join(root, versions[versions.length - 1], 'bin') : null;
}

export async function startPrimaryAndStandby(bin: string): Promise<PrimaryAndStandby> {
  const dir = mkdtempSync(join(tmpdir(), 'chat-memory-replica-'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) chownSync(dir, uidOf('postgres'), gidOf('postgres'));
  const as = (command: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', join(bin, command), ...args]) : run(join(bin, command), args);
  const [primaryPort, standbyPort] = [await freePort(), await freePort()];
  const ctl = (data: string, port: number, action: 'start' | 'stop') =>
    action === 'start'
      ? as('pg_ctl', [
          '-D',
          data,
          '-l',
          `${data}.log`,
          '-w',
          '-o',
          `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=60`,
          'start',
        ])
      : as('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
  const primaryData = join(dir, 'primary');
  const standbyData = join(dir, 'standby');
  await as('initdb', ['-D', primaryData, '-U', 'postgres', '--auth=trust', '--no-sync']);
  await ctl(primaryData, primaryPort, 'start');
  await as('pg_basebackup', [
    '-h',
    '127.0.0.1',
    '-p',
    String(primaryPort),
    '-U',
    'postgres',
    '-D',
    standbyData,
    '-R',
    '-X',
    'stream',
  ]);
  await ctl(standbyData, standbyPort, 'start');
  const url = (port: number) => `postgres://postgres@127.0.0.1:${port}/postgres`;
  return {
    primaryUrl: url(primaryPort),
    standbyUrl: url(standbyPort),
    query: async (on, sql, params) => {
      const client = new pg.Client({ connectionString: url(on === 'primary' ? primaryPort : standbyPort) });
      await client.connect();
      try {
        return await client.query(sql, params);
      } finally {
        await client.end();
      }
    },
    stopStandby: async () => void (await ctl(standbyData, standbyPort, 'stop')),
    startStandby: async () => void (await ctl(standbyData, standbyPort, 'start')),
    remove: async () => {
      await ctl(standbyData, standbyPort, 'stop').catch(() => undefined);
      await ctl(primaryData, primaryPort, 'stop').catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

function uidOf(user: string): number {
  return idOf(user, 2);
}

function gidOf(user: string): number {
  return idOf(user, 3);
}

/** From /etc/passwd: the user's uid (field 2) or gid (field 3). */
function idOf(user: string, field: number): number {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${user}:`));
  if (!line) throw new Error(`no user ${user} to run PostgreSQL as`);
  return Number(line.split(':')[field]);
}

import { StorageBusyError, StorageError, StorageFullError, StorageUnavailableError } from '../common/storage.errors.js';

// What a database driver's error means for storage. Only database/ converts (DatabaseService, for every
// unit of work it runs): everything above it sees StorageErrors, never a driver's error.

const SQLITE_FULL = new Set(['SQLITE_FULL']);
const SQLITE_BUSY = /^SQLITE_(BUSY|LOCKED)/;
const SQLITE_UNAVAILABLE = /^SQLITE_(IOERR|READONLY|CANTOPEN|NOMEM|PROTOCOL|NOLFS)/;
/** PostgreSQL SQLSTATEs: 53100 disk_full; 55P03 lock_not_available; the rest mean the server cannot serve now. */
const PG_FULL = new Set(['53100']);
const PG_BUSY = new Set(['55P03']);
const PG_UNAVAILABLE = /^(08|57P0[123]|53200|53300|58030|25006)/;
/** Errors of the socket to PostgreSQL, and pg's own words for a lost or never made connection. */
const NETWORK = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);
const PG_CONNECTION_MESSAGE =
  /Connection terminated|timeout exceeded when trying to connect|not queryable|Connection ended|the database system is (starting up|shutting down)/i;

/** The storage error an error of a database driver means, or null when it means something else (a bug, a constraint). */
export function storageErrorOf(error: unknown): StorageError | null {
  if (error instanceof StorageError) return error;
  // Duck-typed: errors of Node's sockets may come from another realm (instanceof Error fails there).
  if (typeof error !== 'object' || error === null) return null;
  const driverError = (error as { driverError?: unknown }).driverError;
  const source = (typeof driverError === 'object' && driverError !== null ? driverError : error) as {
    code?: unknown;
    message?: unknown;
  };
  const code = String(source.code ?? '');
  if (SQLITE_FULL.has(code) || PG_FULL.has(code))
    return new StorageFullError('The database is full: nothing more can be stored until space is freed', error);
  if (SQLITE_BUSY.test(code) || PG_BUSY.has(code))
    return new StorageBusyError('The database is locked by another process; try again shortly', error);
  if (
    SQLITE_UNAVAILABLE.test(code) ||
    PG_UNAVAILABLE.test(code) ||
    NETWORK.has(code) ||
    PG_CONNECTION_MESSAGE.test(String(source.message ?? ''))
  ) {
    return new StorageUnavailableError('The database is unavailable; try again shortly', error);
  }
  return null;
}

import { DomainError } from './domain-error.js';

/**
 * The database could not do what was asked, through no fault of the caller: it is full, it
 * does not answer, or another process holds its lock. Nothing of the failed unit of work was
 * stored. The database service raises them in place of its driver's errors, so every caller
 * (surfaces included) sees a domain error; surfaces map them by code (HTTP: 507, or 503 with
 * Retry-After).
 */
export abstract class StorageError extends DomainError {
  abstract override readonly code: 'storage_full' | 'storage_unavailable' | 'storage_busy';
  /** When a retry may succeed, in seconds. */
  abstract readonly retryAfterSeconds: number;

  constructor(
    message: string,
    override readonly cause?: unknown,
  ) {
    super(message);
  }
}

/** The disk (or the database's size limit) is full. */
export class StorageFullError extends StorageError {
  readonly code = 'storage_full';
  readonly retryAfterSeconds = 30;
}

/** The database does not answer, failed to read or write (I/O error), or refuses writes. */
export class StorageUnavailableError extends StorageError {
  readonly code = 'storage_unavailable';
  readonly retryAfterSeconds = 5;
}

/** Another process held the database's write lock for longer than the wait allows. */
export class StorageBusyError extends StorageError {
  readonly code = 'storage_busy';
  readonly retryAfterSeconds = 2;
}

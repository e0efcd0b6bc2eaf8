import { DomainError } from '../common/domain-error.js';

/** Too many updates are waiting to be answered: the update is not recorded (so not acknowledged). */
export class InboxFullError extends DomainError {
  readonly code = 'telegram_inbox_full';
  constructor(limit: number) {
    super(`${limit} Telegram updates are already waiting to be answered`);
  }
}

/** The update is larger than what is kept for a replay: it is not recorded. */
export class UpdateTooLargeError extends DomainError {
  readonly code = 'telegram_update_too_large';
  constructor(limit: number) {
    super(`The update is larger than ${limit} bytes`);
  }
}

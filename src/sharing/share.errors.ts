import { DomainError } from '../common/domain-error.js';

/**
 * No such share: an unknown, expired or revoked token, or a share id that is not the caller's.
 * All of them answer the same, so tokens and ids cannot be probed.
 */
export class ShareNotFoundError extends DomainError {
  readonly code = 'share_not_found';
  constructor() {
    super('Share not found');
  }
}

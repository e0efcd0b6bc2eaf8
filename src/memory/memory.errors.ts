import { DomainError } from '../common/domain-error.js';

/** No memory with this id belongs to the actor (another actor's memory is answered the same way). */
export class MemoryNotFoundError extends DomainError {
  readonly code = 'memory_not_found';
  constructor(readonly memoryId: string) {
    super(`Memory ${memoryId} not found`);
  }
}

/** A memory's text or scope the service cannot take (empty, too long, NUL, an unknown agent). */
export class InvalidMemoryError extends DomainError {
  readonly code = 'invalid_input';
}

/** The actor keeps as many memories as MAX_MEMORIES_PER_ACTOR allows. */
export class MemoryLimitError extends DomainError {
  readonly code = 'limit_reached';
  constructor(limit: number) {
    super(`You keep ${limit} memories, as many as allowed (MAX_MEMORIES_PER_ACTOR): delete some first`);
  }
}

import { DomainError } from '../common/domain-error.js';

/** No agent with this id belongs to the actor (another actor's agent is answered the same way). */
export class AgentNotFoundError extends DomainError {
  readonly code = 'agent_not_found';
  constructor(readonly agentId: string) {
    super(`Agent ${agentId} not found`);
  }
}

/** The actor has as many agents as MAX_AGENTS_PER_ACTOR allows. */
export class AgentLimitError extends DomainError {
  readonly code = 'limit_reached';
  constructor(readonly limit: number) {
    super(`You have ${limit} agents, as many as allowed (MAX_AGENTS_PER_ACTOR): delete some first`);
  }
}

/** A list cursor this service did not write. */
export class InvalidAgentCursorError extends DomainError {
  readonly code = 'invalid_input';
  constructor() {
    super('cursor is not one this service returned');
  }
}

/** Deleting an agent that still has conversations needs an explicit choice of what happens to them. */
export class AgentInUseError extends DomainError {
  readonly code = 'agent_in_use';
  constructor(
    readonly agentId: string,
    readonly conversations: number,
  ) {
    super(
      `Agent ${agentId} has ${conversations} conversation${conversations === 1 ? '' : 's'}: ` +
        'repeat with ?conversations=detach to keep them without an agent, or ?conversations=delete to delete them too',
    );
  }
}

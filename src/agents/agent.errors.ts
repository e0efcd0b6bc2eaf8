import { DomainError } from '../common/domain-error.js';

/** No agent with this id belongs to the actor (another actor's agent is answered the same way). */
export class AgentNotFoundError extends DomainError {
  readonly code = 'agent_not_found';
  constructor(readonly agentId: string) {
    super(`Agent ${agentId} not found`);
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

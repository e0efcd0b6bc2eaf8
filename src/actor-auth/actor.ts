/**
 * Who is calling. Every domain method takes one; ownership of data is keyed on `id`
 * (`api:alice`, `telegram:42`).
 */
export interface Actor {
  readonly id: string;
  /**
   * Other actors whose agents this one may talk with (not change): how an operator offers
   * agents to the users of a surface. Conversations stay the actor's own.
   */
  readonly agentPublishers?: readonly string[];
}

export function apiActor(name: string): Actor {
  return { id: `api:${name}` };
}

export function telegramActor(userId: number | string): Actor {
  return { id: `telegram:${userId}` };
}

/** The actor of single-user mode (no API keys configured, loopback only). */
export const SINGLE_USER_ACTOR: Actor = apiActor('owner');

/** The quota as the import sees it: conversations left (dry runs only), and the reason once it is reached. */
export interface Room {
  left: number | null;
  full: string | null;
}

/** Why a conversation is skipped once the actor has as many as MAX_CONVERSATIONS_PER_ACTOR allows. */
export function quotaMessage(max: number): string {
  return `You have reached the limit of ${max} conversations (MAX_CONVERSATIONS_PER_ACTOR); delete some first`;
}

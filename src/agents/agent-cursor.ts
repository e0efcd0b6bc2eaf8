/** Where a page of agents ends, in their list order: name, then creation, then id. */
interface AgentPosition {
  readonly name: string;
  readonly createdAt: Date;
  readonly id: string;
}

/** Opaque to clients: base64url of the position as JSON. */
export function encodeAgentCursor(p: AgentPosition): string {
  return Buffer.from(JSON.stringify([p.name, p.createdAt.getTime(), p.id]), 'utf8').toString('base64url');
}

/** Undefined for anything that is not a cursor this service wrote. */
export function decodeAgentCursor(raw: string): AgentPosition | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (!Array.isArray(parsed) || parsed.length !== 3) return undefined;
  const [name, time, id] = parsed as unknown[];
  if (
    typeof name !== 'string' ||
    name.length > 100 ||
    !Number.isSafeInteger(time) ||
    typeof id !== 'string' ||
    !/^[0-9a-f-]{36}$/.test(id)
  )
    return undefined;
  return { name, createdAt: new Date(time as number), id };
}

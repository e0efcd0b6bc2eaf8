/** Keyset position in "most recently updated first" order; opaque to clients. */
export interface ConversationCursor {
  readonly updatedAt: Date;
  readonly id: string;
}

export function encodeCursor(c: ConversationCursor): string {
  return Buffer.from(`${c.updatedAt.getTime()}.${c.id}`, 'utf8').toString('base64url');
}

/** Returns undefined for anything that is not a cursor this service wrote. */
export function decodeCursor(raw: string): ConversationCursor | undefined {
  const decoded = Buffer.from(raw, 'base64url').toString('utf8');
  const match = /^(\d{1,15})\.([0-9a-f-]{36})$/.exec(decoded);
  if (!match) return undefined;
  return { updatedAt: new Date(Number(match[1])), id: match[2] };
}

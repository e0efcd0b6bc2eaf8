/**
 * Keyset position in "most recently updated first" order, or in "pinned first, then most
 * recently updated" order when `pinned` is set (the row's pinned flag); opaque to clients.
 */
export interface ConversationCursor {
  readonly updatedAt: Date;
  readonly id: string;
  readonly pinned?: boolean;
}

export function encodeCursor(c: ConversationCursor): string {
  const order = c.pinned === undefined ? '' : c.pinned ? '.p1' : '.p0';
  return Buffer.from(`${c.updatedAt.getTime()}.${c.id}${order}`, 'utf8').toString('base64url');
}

/** Returns undefined for anything that is not a cursor this service wrote. */
export function decodeCursor(raw: string): ConversationCursor | undefined {
  const decoded = Buffer.from(raw, 'base64url').toString('utf8');
  const match = /^(\d{1,15})\.([0-9a-f-]{36})(?:\.p([01]))?$/.exec(decoded);
  if (!match) return undefined;
  const at = { updatedAt: new Date(Number(match[1])), id: match[2] };
  return match[3] === undefined ? at : { ...at, pinned: match[3] === '1' };
}

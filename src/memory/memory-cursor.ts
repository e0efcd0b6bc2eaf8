import type { MemoryPosition } from './memories.repository.js';

/** Keyset position in "most recently updated first" order; opaque to clients. */
export function encodeMemoryCursor(p: MemoryPosition): string {
  return Buffer.from(`${p.updatedAt.getTime()}.${p.id}`, 'utf8').toString('base64url');
}

/** Undefined for anything that is not a cursor this service wrote. */
export function decodeMemoryCursor(raw: string): MemoryPosition | undefined {
  const match = /^(\d{1,15})\.([0-9a-f-]{36})$/.exec(Buffer.from(raw, 'base64url').toString('utf8'));
  return match ? { updatedAt: new Date(Number(match[1])), id: match[2] } : undefined;
}

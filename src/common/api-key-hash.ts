import { createHash } from 'node:crypto';

/** SHA-256 of an API key: what is kept instead of the key. Keys are long random strings, so no salt or slow hash is needed. */
export function hashApiKey(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

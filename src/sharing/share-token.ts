import { randomBytes } from 'node:crypto';
import { hashApiKey } from '../common/api-key-hash.js';

/** 256 random bits, URL-safe (43 characters): unguessable, so a plain SHA-256 is enough to store it. */
export function newShareToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What is stored instead of the token. */
export function hashShareToken(token: string): string {
  return hashApiKey(token).toString('hex');
}

/** The shape of a token this service makes; anything else is unknown without a query. */
export const SHARE_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

import { createHash } from 'node:crypto';
import { hashShareToken, newShareToken, SHARE_TOKEN_PATTERN } from './share-token.js';

describe('share tokens', () => {
  it('are 256 random bits, URL-safe, never twice the same', () => {
    const tokens = new Set(Array.from({ length: 1000 }, () => newShareToken()));
    expect(tokens.size).toBe(1000);
    for (const token of tokens) {
      expect(token).toMatch(SHARE_TOKEN_PATTERN);
      expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    }
  });

  it('are kept as their hex SHA-256', () => {
    const token = newShareToken();
    expect(hashShareToken(token)).toBe(createHash('sha256').update(token, 'utf8').digest('hex'));
    expect(hashShareToken(token)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuse other shapes without a lookup', () => {
    for (const bad of ['', 'short', 'A'.repeat(42), 'A'.repeat(44), `${'A'.repeat(42)}.`, `${'A'.repeat(42)}/`])
      expect(SHARE_TOKEN_PATTERN.test(bad)).toBe(false);
  });
});

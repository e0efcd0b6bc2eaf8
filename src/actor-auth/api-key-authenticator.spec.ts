import { ApiKeyAuthenticator } from './api-key-authenticator.js';
import { hashApiKey } from './api-key-hash.js';

describe('ApiKeyAuthenticator', () => {
  const auth = new ApiKeyAuthenticator([
    { name: 'alice', keyHash: hashApiKey('alice-key-123') },
    { name: 'bob', keyHash: hashApiKey('bob-key-456') },
  ]);

  it('maps each key to its api: actor', () => {
    expect(auth.authenticate('alice-key-123')).toEqual({ id: 'api:alice' });
    expect(auth.authenticate('bob-key-456')).toEqual({ id: 'api:bob' });
  });

  it('refuses wrong, partial, padded and missing keys', () => {
    for (const key of ['alice-key-12', 'alice-key-1234', ' alice-key-123', 'ALICE-KEY-123', '', undefined]) {
      expect(auth.authenticate(key)).toBeUndefined();
    }
  });

  it('is single-user without keys: everyone is api:owner', () => {
    const open = new ApiKeyAuthenticator([]);
    expect(open.singleUser).toBe(true);
    expect(open.authenticate(undefined)).toEqual({ id: 'api:owner' });
  });
});

import { loadConfig } from '../config/app-config.js';
import { ConfigError } from '../config/config-error.js';
import { ApiKeyAuthenticator } from './api-key-authenticator.js';
import { hashApiKey } from '../common/api-key-hash.js';
import type { ApiKeysService } from './api-keys.service.js';

/** Stored keys as a map of hash -> actor name. */
function storedKeys(keys: Record<string, string> = {}): ApiKeysService {
  const byHash = new Map(Object.entries(keys).map(([key, name]) => [hashApiKey(key).toString('hex'), name]));
  return {
    nameOf: async (hash: Buffer) => byHash.get(hash.toString('hex')),
    anyActive: async () => byHash.size > 0,
  } as unknown as ApiKeysService;
}

describe('ApiKeyAuthenticator', () => {
  const config = loadConfig({ API_KEYS: 'alice:alice-key-123,bob:bob-key-456' });

  it('maps each key of API_KEYS, and each stored key, to its api: actor', async () => {
    const auth = new ApiKeyAuthenticator(config, storedKeys({ 'cmk_stored-key': 'carol' }));
    expect(await auth.authenticate('alice-key-123')).toEqual({ id: 'api:alice' });
    expect(await auth.authenticate('bob-key-456')).toEqual({ id: 'api:bob' });
    expect(await auth.authenticate('cmk_stored-key')).toEqual({ id: 'api:carol' });
  });

  it('refuses wrong, partial, padded and missing keys', async () => {
    const auth = new ApiKeyAuthenticator(config, storedKeys());
    for (const key of ['alice-key-12', 'alice-key-1234', ' alice-key-123', 'ALICE-KEY-123', '', undefined]) {
      expect(await auth.authenticate(key)).toBeUndefined();
    }
  });

  it('is single-user without any key on a loopback address: everyone is api:owner', async () => {
    const open = new ApiKeyAuthenticator(loadConfig({}), storedKeys());
    expect(await open.authenticate(undefined)).toEqual({ id: 'api:owner' });
    expect(await open.authenticate('whatever')).toEqual({ id: 'api:owner' });
  });

  it('leaves single-user mode as soon as a key is stored', async () => {
    const auth = new ApiKeyAuthenticator(loadConfig({}), storedKeys({ cmk_first: 'dave' }));
    expect(await auth.authenticate(undefined)).toBeUndefined();
    expect(await auth.authenticate('cmk_first')).toEqual({ id: 'api:dave' });
  });

  it('refuses to start on a non-loopback address without any key, and never serves single-user there', async () => {
    const exposed = loadConfig({ HOST: '0.0.0.0' });
    await expect(new ApiKeyAuthenticator(exposed, storedKeys()).onApplicationBootstrap()).rejects.toThrow(ConfigError);
    await expect(new ApiKeyAuthenticator(exposed, storedKeys()).onApplicationBootstrap()).rejects.toThrow(
      /not a loopback address/,
    );
    const withStored = new ApiKeyAuthenticator(exposed, storedKeys({ cmk_k: 'ops' }));
    await expect(withStored.onApplicationBootstrap()).resolves.toBeUndefined();
    expect(await withStored.authenticate(undefined)).toBeUndefined();
  });
});

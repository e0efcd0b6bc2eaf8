import { timingSafeEqual } from 'node:crypto';
import type { ConfiguredApiKey } from '../config/app-config.js';
import { apiActor, SINGLE_USER_ACTOR, type Actor } from './actor.js';
import { hashApiKey } from './api-key-hash.js';

interface KeyRecord {
  readonly actor: Actor;
  readonly hash: Buffer;
}

/**
 * Resolves a presented API key to its actor. Only SHA-256 hashes of the configured keys exist
 * (the configuration hashes them as it reads them), and a presented key is compared with every one of them in constant time, so neither
 * timing nor a memory dump gives a key away.
 */
export class ApiKeyAuthenticator {
  private readonly records: readonly KeyRecord[];

  constructor(keys: ReadonlyArray<ConfiguredApiKey>) {
    this.records = keys.map(({ name, keyHash }) => ({ actor: apiActor(name), hash: keyHash }));
  }

  /** No keys configured: every caller is the single owner (only allowed on loopback, see config). */
  get singleUser(): boolean {
    return this.records.length === 0;
  }

  authenticate(presentedKey: string | undefined): Actor | undefined {
    if (this.singleUser) return SINGLE_USER_ACTOR;
    if (!presentedKey) return undefined;
    const presented = hashApiKey(presentedKey);
    let match: Actor | undefined;
    for (const record of this.records) {
      // No early exit: the time taken does not depend on which key matched.
      if (timingSafeEqual(record.hash, presented)) match = record.actor;
    }
    return match;
  }
}

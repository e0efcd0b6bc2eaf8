import { timingSafeEqual } from 'node:crypto';
import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { APP_CONFIG, ConfigError, type AppConfig } from '../config/app-config.js';
import { apiActor, SINGLE_USER_ACTOR, type Actor } from './actor.js';
import { hashApiKey } from '../common/api-key-hash.js';
import { ApiKeysService } from './api-keys.service.js';

interface KeyRecord {
  readonly actor: Actor;
  readonly hash: Buffer;
}

/**
 * Resolves a presented API key to its actor: first the keys of API_KEYS (only their SHA-256
 * hashes exist, compared with every one in constant time), then the keys made with
 * `npm run keys` (looked up by hash, so a revoked key fails at once). With no key anywhere and
 * a loopback address, every caller is the single owner.
 */
@Injectable()
export class ApiKeyAuthenticator implements OnApplicationBootstrap {
  private readonly records: readonly KeyRecord[];

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly stored: ApiKeysService,
  ) {
    this.records = config.apiKeys.map(({ name, keyHash }) => ({ actor: apiActor(name), hash: keyHash }));
  }

  /** A server reachable from other machines must not start without any key. */
  async onApplicationBootstrap(): Promise<void> {
    if (this.config.requireApiKeys && this.records.length === 0 && !(await this.stored.anyActive())) {
      throw new ConfigError(
        `HOST=${this.config.host} is not a loopback address and there is no API key (API_KEYS is empty, and none was made ` +
          'with npm run keys): refusing to serve every caller as the single owner. Add a key, or bind HOST=127.0.0.1.',
      );
    }
  }

  async authenticate(presentedKey: string | undefined): Promise<Actor | undefined> {
    if (!presentedKey) return (await this.isSingleUser()) ? SINGLE_USER_ACTOR : undefined;
    const presented = hashApiKey(presentedKey);
    let match: Actor | undefined;
    for (const record of this.records) {
      // No early exit: the time taken does not depend on which key matched.
      if (timingSafeEqual(record.hash, presented)) match = record.actor;
    }
    if (match) return match;
    const name = await this.stored.nameOf(presented);
    if (name) return apiActor(name);
    // In single-user mode a stray key does not lock the owner out.
    return (await this.isSingleUser()) ? SINGLE_USER_ACTOR : undefined;
  }

  /** No key anywhere and a loopback address: decided per call, so a key made meanwhile ends it at once. */
  async isSingleUser(): Promise<boolean> {
    return !this.config.requireApiKeys && this.records.length === 0 && !(await this.stored.anyActive());
  }
}

import { randomBytes, randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { IsNull, type EntityManager } from 'typeorm';
import { DomainError } from '../common/domain-error.js';
import { DatabaseService } from '../database/database.service.js';
import { sql } from '../database/sql.js';
import { ApiKey } from './api-key.entity.js';
import { hashApiKey } from '../common/api-key-hash.js';

const NAME = /^[A-Za-z0-9_.-]{1,64}$/;
/** Writing last_used_at on every request would turn every read into a write. */
const LAST_USED_EVERY_MS = 60_000;

/** An API key request the service refuses (a bad actor name or label). */
export class ApiKeyError extends DomainError {
  readonly code = 'invalid_input';
}

/**
 * API keys kept in the database (besides API_KEYS from the environment). Promises: a key is
 * shown once and stored only as its SHA-256; a revoked key stops working at once on every
 * instance (keys are looked up per request, not cached).
 */
@Injectable()
export class ApiKeysService {
  private readonly lastUsedWritten = new Map<string, number>();

  constructor(private readonly db: DatabaseService) {}

  /** Creates a key for actor `api:<name>`; returns the key itself, which is never stored or shown again. */
  create(name: string, label?: string): Promise<{ id: string; name: string; key: string }> {
    return this.db.transaction((em) => this.createIn(em, name, label));
  }

  /** As `create`, in the caller's unit of work (a key made together with other writes). */
  async createIn(em: EntityManager, name: string, label?: string): Promise<{ id: string; name: string; key: string }> {
    if (!NAME.test(name))
      throw new ApiKeyError('the actor name may only use letters, digits, "_", "." and "-" (at most 64)');
    if (label !== undefined && label.length > 200) throw new ApiKeyError('the label is longer than 200 characters');
    const key = `cmk_${randomBytes(32).toString('base64url')}`;
    const id = randomUUID();
    await em.insert(ApiKey, {
      id,
      name,
      keyHash: hashApiKey(key).toString('hex'),
      label: label ?? null,
      createdAt: new Date(),
      lastUsedAt: null,
      revokedAt: null,
    });
    return { id, name, key };
  }

  list(): Promise<ApiKey[]> {
    return this.db.read((em) => em.find(ApiKey, { order: { createdAt: 'ASC' } }));
  }

  /** True when the key was active and is now revoked. */
  revoke(id: string): Promise<boolean> {
    return this.db.transaction(async (em) => {
      const result = await em.update(ApiKey, { id, revokedAt: IsNull() }, { revokedAt: new Date() });
      return (result.affected ?? 0) > 0;
    });
  }

  /** The actor name of an active key with this hash, or undefined. */
  async nameOf(keyHash: Buffer): Promise<string | undefined> {
    const hex = keyHash.toString('hex');
    const key = await this.db.read((em) => em.findOne(ApiKey, { where: { keyHash: hex, revokedAt: IsNull() } }));
    if (!key) return undefined;
    const now = Date.now();
    if (now - (this.lastUsedWritten.get(key.id) ?? 0) > LAST_USED_EVERY_MS) {
      this.lastUsedWritten.set(key.id, now);
      void this.db
        .transaction((em) => em.update(ApiKey, { id: key.id }, { lastUsedAt: new Date(now) }))
        .catch(() => undefined);
    }
    return key.name;
  }

  /** Whether any key is active: then nobody is served without one. */
  async anyActive(): Promise<boolean> {
    // Asked on every request in single-user mode (a key made meanwhile ends it): one prepared statement.
    const { rows } = await this.db.read((em) =>
      sql(em, 'SELECT 1 AS "one" FROM "api_keys" WHERE "revoked_at" IS NULL LIMIT 1'),
    );
    return rows.length > 0;
  }
}

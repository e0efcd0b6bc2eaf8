import { Injectable } from '@nestjs/common';
import { IsNull, LessThan, MoreThan, Not, type EntityManager } from 'typeorm';
import { DatabaseService } from '../database/database.service.js';
import { OAuthToken } from './oauth-token.entity.js';

/** The `oauth_tokens` table. */
@Injectable()
export class OAuthTokensRepository {
  constructor(private readonly db: DatabaseService) {}

  async insert(token: OAuthToken): Promise<void> {
    await this.db.transaction(async (em) => {
      // The actor's dead tokens (expired or revoked) go as new ones come, so the rows per actor stay those in use.
      await em.delete(OAuthToken, { actor: token.actor, refreshExpiresAt: LessThan(token.createdAt) });
      await em.delete(OAuthToken, { actor: token.actor, revokedAt: Not(IsNull()) });
      await em.insert(OAuthToken, token);
    });
  }

  /** The live token whose access token has this hash. */
  byAccess(accessHash: string, now: Date): Promise<OAuthToken | null> {
    return this.db.read((em) =>
      em.findOne(OAuthToken, { where: { accessHash, revokedAt: IsNull(), accessExpiresAt: MoreThan(now) } }),
    );
  }

  /** The live token of this client whose refresh token has this hash. */
  byRefresh(clientId: string, refreshHash: string, now: Date): Promise<OAuthToken | null> {
    return this.db.read((em) =>
      em.findOne(OAuthToken, {
        where: { clientId, refreshHash, revokedAt: IsNull(), refreshExpiresAt: MoreThan(now) },
      }),
    );
  }

  /** Replaces a row's pair if it still has `refreshHash`: a refresh token is used once. */
  rotate(
    id: string,
    refreshHash: string,
    next: Pick<OAuthToken, 'accessHash' | 'refreshHash' | 'accessExpiresAt' | 'refreshExpiresAt'>,
  ): Promise<boolean> {
    return this.db.transaction(async (em) => {
      const result = await em.update(OAuthToken, { id, refreshHash, revokedAt: IsNull() }, next);
      return (result.affected ?? 0) > 0;
    });
  }

  /** Revokes the client's token that has this access or refresh hash. */
  async revokeByHash(clientId: string, hash: string, now: Date): Promise<void> {
    await this.db.transaction(async (em) => {
      await em.update(OAuthToken, { clientId, accessHash: hash, revokedAt: IsNull() }, { revokedAt: now });
      await em.update(OAuthToken, { clientId, refreshHash: hash, revokedAt: IsNull() }, { revokedAt: now });
    });
  }

  /** The actor's live tokens (the connected clients). */
  liveFor(actor: string, now: Date): Promise<OAuthToken[]> {
    return this.db.read((em) =>
      em.find(OAuthToken, {
        where: { actor, revokedAt: IsNull(), refreshExpiresAt: MoreThan(now) },
        order: { createdAt: 'DESC' },
        take: 200,
      }),
    );
  }

  /** Revokes every live token of one client for one actor; how many. */
  revokeClientFor(actor: string, clientId: string, now: Date): Promise<number> {
    return this.db.transaction(async (em) => {
      const result = await em.update(OAuthToken, { actor, clientId, revokedAt: IsNull() }, { revokedAt: now });
      return result.affected ?? 0;
    });
  }

  /** Gives every token of `from` to `to`, in the caller's transaction (the single-user history adopted by a key). */
  async moveActorIn(em: EntityManager, from: string, to: string): Promise<number> {
    return (await em.update(OAuthToken, { actor: from }, { actor: to })).affected ?? 0;
  }

  /** Every token of an actor (account erasure). */
  async deleteFor(actor: string): Promise<void> {
    await this.db.transaction((em) => em.delete(OAuthToken, { actor }));
  }
}

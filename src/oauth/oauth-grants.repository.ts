import { Injectable } from '@nestjs/common';
import { IsNull, LessThan, MoreThan } from 'typeorm';
import { DatabaseService } from '../database/database.service.js';
import { OAuthGrant } from './oauth-grant.entity.js';

/** The `oauth_grants` table: authorization requests and their codes. */
@Injectable()
export class OAuthGrantsRepository {
  constructor(private readonly db: DatabaseService) {}

  async insert(grant: OAuthGrant, now: Date): Promise<void> {
    await this.db.transaction(async (em) => {
      // Requests nobody finished are dropped as new ones come, so the table holds only live ones.
      await em.delete(OAuthGrant, { expiresAt: LessThan(now) });
      await em.insert(OAuthGrant, grant);
    });
  }

  /** A request still waiting for its user's decision. */
  findPending(id: string, now: Date): Promise<OAuthGrant | null> {
    return this.db.read((em) => em.findOne(OAuthGrant, { where: { id, actor: IsNull(), expiresAt: MoreThan(now) } }));
  }

  /** Approves a pending request for `actor` with its code's hash; false when it was no longer pending. */
  approve(id: string, actor: string, codeHash: string, scopes: string, expiresAt: Date, now: Date): Promise<boolean> {
    return this.db.transaction(async (em) => {
      const result = await em.update(
        OAuthGrant,
        { id, actor: IsNull(), expiresAt: MoreThan(now) },
        { actor, codeHash, scopes, expiresAt },
      );
      return (result.affected ?? 0) > 0;
    });
  }

  /** Ends a pending request (the user denied it); false when it was no longer pending. */
  deny(id: string, now: Date): Promise<boolean> {
    return this.db.transaction(async (em) => {
      const result = await em.delete(OAuthGrant, { id, actor: IsNull(), expiresAt: MoreThan(now) });
      return (result.affected ?? 0) > 0;
    });
  }

  /** An approved, unspent, unexpired code of this client. */
  findCode(clientId: string, codeHash: string, now: Date): Promise<OAuthGrant | null> {
    return this.db.read((em) =>
      em.findOne(OAuthGrant, { where: { clientId, codeHash, usedAt: IsNull(), expiresAt: MoreThan(now) } }),
    );
  }

  /** Spends a code: true for the one caller that spent it, so a code is exchanged at most once. */
  spend(id: string, now: Date): Promise<boolean> {
    return this.db.transaction(async (em) => {
      const result = await em.update(OAuthGrant, { id, usedAt: IsNull(), expiresAt: MoreThan(now) }, { usedAt: now });
      return (result.affected ?? 0) > 0;
    });
  }
}

import { Injectable } from '@nestjs/common';
import { DatabaseService } from '../database/database.service.js';
import { OAuthClient } from './oauth-client.entity.js';

/** The `oauth_clients` table. */
@Injectable()
export class OAuthClientsRepository {
  constructor(private readonly db: DatabaseService) {}

  async insert(client: OAuthClient): Promise<void> {
    await this.db.transaction((em) => em.insert(OAuthClient, client));
  }

  find(id: string): Promise<OAuthClient | null> {
    return this.db.read((em) => em.findOne(OAuthClient, { where: { id } }));
  }

  findMany(ids: readonly string[]): Promise<OAuthClient[]> {
    if (!ids.length) return Promise.resolve([]);
    return this.db.read((em) => em.createQueryBuilder(OAuthClient, 'c').where('c.id IN (:...ids)', { ids }).getMany());
  }
}

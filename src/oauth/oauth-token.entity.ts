import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * An access token and its refresh token, given to one client for one actor. Only their SHA-256
 * hashes are stored. A refresh replaces the row's pair (the old refresh token stops working);
 * revoking ends both at once, on every instance.
 */
@Entity('oauth_tokens')
@Index('uq_oauth_tokens_access_hash', ['accessHash'], { unique: true })
@Index('uq_oauth_tokens_refresh_hash', ['refreshHash'], { unique: true })
// The actor's connected clients, and revoking one of them.
@Index('idx_oauth_tokens_actor', ['actor', 'clientId'])
export class OAuthToken {
  @PrimaryColumn({ type: 'varchar', length: 36, primaryKeyConstraintName: 'pk_oauth_tokens' })
  id: string;

  @Column({ type: 'varchar', length: 200 })
  actor: string;

  @Column({ name: 'client_id', type: 'varchar', length: 36 })
  clientId: string;

  @Column({ name: 'access_hash', type: 'varchar', length: 64 })
  accessHash: string;

  @Column({ name: 'refresh_hash', type: 'varchar', length: 64 })
  refreshHash: string;

  /** Space-separated granted scopes. */
  @Column({ type: 'varchar', length: 200 })
  scopes: string;

  @Column({ name: 'access_expires_at', type: Date })
  accessExpiresAt: Date;

  @Column({ name: 'refresh_expires_at', type: Date })
  refreshExpiresAt: Date;

  @Column({ name: 'created_at', type: Date })
  createdAt: Date;

  @Column({ name: 'revoked_at', type: Date, nullable: true })
  revokedAt: Date | null;
}

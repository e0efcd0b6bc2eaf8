import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * One authorization request of a client, from the authorize redirect to the code's exchange:
 * pending until its user approves it on the consent page (then `actor` and the code's hash are
 * set), spent when the code is exchanged (`used_at`), and worthless after `expires_at`.
 */
@Entity('oauth_grants')
@Index('uq_oauth_grants_code_hash', ['codeHash'], { unique: true })
export class OAuthGrant {
  @PrimaryColumn({ type: 'varchar', length: 36, primaryKeyConstraintName: 'pk_oauth_grants' })
  id: string;

  @Column({ name: 'client_id', type: 'varchar', length: 36 })
  clientId: string;

  @Column({ name: 'redirect_uri', type: 'text' })
  redirectUri: string;

  @Column({ name: 'code_challenge', type: 'varchar', length: 128 })
  codeChallenge: string;

  /** Space-separated scopes the client asked for. */
  @Column({ type: 'varchar', length: 200 })
  scopes: string;

  @Column({ type: 'text', nullable: true })
  state: string | null;

  @Column({ type: 'text', nullable: true })
  resource: string | null;

  /** Who approved it; null while pending. */
  @Column({ type: 'varchar', length: 200, nullable: true })
  actor: string | null;

  /** Hex SHA-256 of the authorization code; null while pending. */
  @Column({ name: 'code_hash', type: 'varchar', length: 64, nullable: true })
  codeHash: string | null;

  @Column({ name: 'created_at', type: Date })
  createdAt: Date;

  @Column({ name: 'expires_at', type: Date })
  expiresAt: Date;

  @Column({ name: 'used_at', type: Date, nullable: true })
  usedAt: Date | null;
}

import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * An API key created with `npm run keys`. Only the SHA-256 of the key is stored; the key
 * itself is shown once, when it is created.
 */
@Entity('api_keys')
@Index('uq_api_keys_key_hash', ['keyHash'], { unique: true })
export class ApiKey {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  /** The name part of the actor (`api:<name>`). */
  @Column({ type: 'varchar', length: 64 })
  name: string;

  /** Hex SHA-256 of the key. */
  @Column({ name: 'key_hash', type: 'varchar', length: 64 })
  keyHash: string;

  @Column({ type: 'varchar', length: 200, nullable: true })
  label: string | null;

  @Column({ name: 'created_at', type: Date })
  createdAt: Date;

  /** Updated at most once a minute per key, so authentication does not write on every request. */
  @Column({ name: 'last_used_at', type: Date, nullable: true })
  lastUsedAt: Date | null;

  /** A revoked key is refused at once, by every instance. */
  @Column({ name: 'revoked_at', type: Date, nullable: true })
  revokedAt: Date | null;
}

import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * An MCP host registered by dynamic client registration (RFC 7591). Every client is public
 * (`token_endpoint_auth_method: none`): it proves itself with PKCE, so no secret is kept.
 */
@Entity('oauth_clients')
export class OAuthClient {
  @PrimaryColumn({ type: 'varchar', length: 36, primaryKeyConstraintName: 'pk_oauth_clients' })
  id: string;

  /** The registered metadata as JSON (client_name, redirect_uris, ...), as answered to the client. */
  @Column({ type: 'text' })
  metadata: string;

  @Column({ name: 'created_at', type: Date })
  createdAt: Date;
}

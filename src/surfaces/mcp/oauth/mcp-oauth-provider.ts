import type { Response } from 'express';
import type { AuthorizationParams, OAuthServerProvider } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import type { OAuthRegisteredClientsStore } from '@modelcontextprotocol/sdk/server/auth/clients.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import {
  InvalidGrantError,
  InvalidRequestError,
  InvalidScopeError,
  InvalidTokenError,
} from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type {
  OAuthClientInformationFull,
  OAuthTokenRevocationRequest,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { OAuthRefusal, type OAuthService } from '../../../oauth/oauth.service.js';

/** Where the authorize endpoint sends the user's browser: the consent page of the web page. */
const CONSENT_PAGE = '/connect.html';

/**
 * The SDK's authorization server handlers (register, authorize, token, revoke) speaking to
 * OAuthService: this translates between the two, and OAuthService's refusals into OAuth errors.
 */
export class McpOAuthProvider implements OAuthServerProvider {
  readonly clientsStore: OAuthRegisteredClientsStore;

  constructor(private readonly oauth: OAuthService) {
    this.clientsStore = {
      getClient: (id) => oauth.client(id) as Promise<OAuthClientInformationFull | undefined>,
      registerClient: (client) => oauth.registerClient(client) as Promise<OAuthClientInformationFull>,
    };
  }

  async authorize(client: OAuthClientInformationFull, params: AuthorizationParams, res: Response): Promise<void> {
    const id = await refusals(() =>
      this.oauth.startAuthorization({
        clientId: client.client_id,
        redirectUri: params.redirectUri,
        codeChallenge: params.codeChallenge,
        scopes: params.scopes ?? [],
        state: params.state,
        resource: params.resource?.href,
      }),
    );
    res.redirect(302, `${CONSENT_PAGE}?request=${encodeURIComponent(id)}`);
  }

  challengeForAuthorizationCode(client: OAuthClientInformationFull, code: string): Promise<string> {
    return refusals(() => this.oauth.challengeFor(client.client_id, code));
  }

  exchangeAuthorizationCode(
    client: OAuthClientInformationFull,
    code: string,
    _verifier?: string,
    redirectUri?: string,
  ): Promise<OAuthTokens> {
    return refusals(() => this.oauth.exchangeCode(client.client_id, code, redirectUri));
  }

  exchangeRefreshToken(
    client: OAuthClientInformationFull,
    refreshToken: string,
    scopes?: string[],
  ): Promise<OAuthTokens> {
    return refusals(() => this.oauth.refresh(client.client_id, refreshToken, scopes));
  }

  async verifyAccessToken(token: string): Promise<AuthInfo> {
    const grant = await this.oauth.verify(token);
    if (!grant) throw new InvalidTokenError('The access token is unknown, expired or revoked');
    return {
      token,
      clientId: grant.clientId,
      scopes: [...grant.scopes],
      expiresAt: Math.floor(grant.expiresAt.getTime() / 1000),
    };
  }

  revokeToken(client: OAuthClientInformationFull, request: OAuthTokenRevocationRequest): Promise<void> {
    return this.oauth.revoke(client.client_id, request.token);
  }
}

/** Runs `work`, turning OAuthService's refusals into the SDK's OAuth errors (which its handlers answer as 400s). */
async function refusals<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof OAuthRefusal)) throw error;
    if (error.oauthCode === 'invalid_grant') throw new InvalidGrantError(error.message);
    if (error.oauthCode === 'invalid_scope') throw new InvalidScopeError(error.message);
    throw new InvalidRequestError(error.message);
  }
}

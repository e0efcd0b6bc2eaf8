import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { authorizationHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/authorize.js';
import { clientRegistrationHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/register.js';
import { revocationHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/revoke.js';
import { tokenHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/token.js';
import type { OAuthService } from '../../../oauth/oauth.service.js';
import { SCOPES } from '../../../oauth/oauth.service.js';
import { McpOAuthProvider } from './mcp-oauth-provider.js';
import { baseUrlOf, PROTECTED_RESOURCE_PATH } from './resource-metadata.js';

/**
 * The OAuth 2.1 authorization server of `/mcp`, as MCP hosts discover and use it (the MCP
 * authorization specification): protected resource metadata (RFC 9728), server metadata
 * (RFC 8414), dynamic client registration (RFC 7591), authorization code with PKCE S256, refresh
 * and revocation (RFC 7009). The handlers are the SDK's; they parse their own form and JSON
 * bodies, so this router is mounted before the application's body parsers and key check.
 */
export function mcpOAuthRoutes(oauth: OAuthService, publicBaseUrl: string | null): Router {
  const provider = new McpOAuthProvider(oauth);
  const router = express.Router();
  const base = (req: Request) => baseUrlOf(req, publicBaseUrl);

  const resourceMetadata = (req: Request, res: Response) => {
    res.json({
      resource: `${base(req)}/mcp`,
      authorization_servers: [base(req)],
      scopes_supported: [...SCOPES],
      bearer_methods_supported: ['header'],
      resource_name: 'chat-memory history',
    });
  };
  router.get(PROTECTED_RESOURCE_PATH, resourceMetadata);
  router.get('/.well-known/oauth-protected-resource', resourceMetadata);
  router.get('/.well-known/oauth-authorization-server', (req, res) => {
    const issuer = base(req);
    res.json({
      issuer,
      authorization_endpoint: `${issuer}/oauth/authorize`,
      token_endpoint: `${issuer}/oauth/token`,
      registration_endpoint: `${issuer}/oauth/register`,
      revocation_endpoint: `${issuer}/oauth/revoke`,
      scopes_supported: [...SCOPES],
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none'],
      revocation_endpoint_auth_methods_supported: ['none'],
    });
  });
  router.use('/oauth/register', clientRegistrationHandler({ clientsStore: provider.clientsStore }));
  router.use('/oauth/authorize', exactRedirectUri(oauth), authorizationHandler({ provider }));
  router.use('/oauth/token', tokenHandler({ provider }));
  router.use('/oauth/revoke', revocationHandler({ provider }));
  return router;
}

/**
 * A redirect URI must be one the client registered, character for character: the SDK would also
 * take a loopback URI on another port (RFC 8252), which lets another program on the user's machine
 * receive the code. Refused here with a JSON 400, never redirected to.
 */
function exactRedirectUri(oauth: OAuthService) {
  return (req: Request, res: Response, next: NextFunction) => {
    const query = req.query as Record<string, unknown>;
    const clientId = query.client_id;
    const redirectUri = query.redirect_uri;
    if (req.method !== 'GET' || typeof clientId !== 'string' || typeof redirectUri !== 'string') return next();
    oauth.client(clientId).then(
      (client) => {
        if (client && !client.redirect_uris.includes(redirectUri)) {
          res.set('Cache-Control', 'no-store');
          return void res
            .status(400)
            .json({ error: 'invalid_request', error_description: 'Unregistered redirect_uri' });
        }
        next();
      },
      (error: unknown) => next(error),
    );
  };
}

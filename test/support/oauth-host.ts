import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';

/** An MCP host's side of OAuth, kept in memory, as the SDK's OAuthClientProvider asks for it. */
export class OAuthHost implements OAuthClientProvider {
  client?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = '';
  /** Where the SDK sent the user to approve: the test follows it instead of a browser. */
  authorizationUrl?: URL;

  constructor(
    readonly redirectUrl: string,
    readonly clientMetadata: OAuthClientMetadata,
    private readonly stateValue: string,
  ) {}

  state() {
    return this.stateValue;
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

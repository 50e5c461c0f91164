// The SDK's OAuthClientProvider for one remote server. Two modes:
// - `engine`: the running engine only ever uses and refreshes stored tokens; when a browser
//   would be needed it reports "sign in again" instead (a background process opens nothing).
// - `interactive`: `switchboard login`; everything the flow produces is held in memory and
//   written to the secret store only by commit(), so a refused flow stores nothing.
import { randomBytes } from 'node:crypto';
import type { OAuthClientProvider, OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { ServerConfig } from '../../../../src-shared/config/schema.ts';
import { SwitchboardError } from '../../../../src-shared/errors.ts';
import { checkAuthorizationUrl } from './authorization-url.ts';
import type { SignInRecord, SignInStore } from './sign-in-store.ts';

/** A call or connection that needs the user to sign in (again) before it can work. */
export class SignInRequiredError extends SwitchboardError {
  constructor(readonly server: string, again: boolean) {
    super(
      'server-unavailable',
      again
        ? `${server} needs you to sign in again: run \`switchboard login ${server}\` or use Sign in on the Servers page.`
        : `${server} asks you to sign in: run \`switchboard login ${server}\` or use Sign in on the Servers page.`,
    );
    this.name = 'SignInRequiredError';
  }
}

/** Used as redirect_uri when the engine has no registration: it never listens there. */
const PLACEHOLDER_REDIRECT = 'http://127.0.0.1/callback';

export interface ProviderOptions {
  server: string;
  config: ServerConfig;
  store: SignInStore;
  resolveSecret?: (name: string) => string | undefined;
  mode: 'engine' | 'interactive';
  /** interactive: the loopback listener's exact URL. */
  redirectUrl?: string;
  /** interactive: a stored registration may be reused (its redirect URI fits the listener). */
  reuseClient?: boolean;
  /** interactive: called with the checked authorization URL; prints it and opens a browser. */
  onAuthorizationUrl?: (url: URL) => Promise<void>;
  /** engine: the stored sign-in no longer works. */
  onSignInNeeded?: () => void;
}

export class SwitchboardOAuthProvider implements OAuthClientProvider {
  readonly #o: ProviderOptions;
  #verifier: string | undefined;
  #state: string | undefined;
  #pendingClient: OAuthClientInformationMixed | undefined;
  #pendingTokens: OAuthTokens | undefined;

  constructor(opts: ProviderOptions) {
    this.#o = opts;
  }

  get redirectUrl(): string {
    if (this.#o.redirectUrl) return this.#o.redirectUrl;
    const client = this.#o.store.read()?.client as { redirect_uris?: string[] } | undefined;
    return client?.redirect_uris?.[0] ?? PLACEHOLDER_REDIRECT;
  }

  get clientMetadata(): OAuthClientMetadata {
    const scopes = this.#o.config.oauth?.scopes;
    return {
      client_name: 'Switchboard',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      ...(scopes?.length ? { scope: scopes.join(' ') } : {}),
    };
  }

  /** The `state` sent with the authorization request; the redirect must carry it back. */
  state(): string {
    this.#state ??= randomBytes(32).toString('base64url');
    return this.#state;
  }
  get expectedState(): string | undefined {
    return this.#state;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    const pre = this.#preRegistered();
    if (pre) return pre;
    if (this.#o.mode === 'interactive') return this.#pendingClient ?? (this.#o.reuseClient ? this.#o.store.read()?.client : undefined);
    const stored = this.#o.store.read()?.client;
    // Registering from the engine would create a client nobody can finish signing in with.
    if (!stored) throw this.#signInNeeded(false);
    return stored;
  }

  saveClientInformation(info: OAuthClientInformationMixed): void {
    if (this.#preRegistered()) return;
    if (this.#o.mode === 'interactive') this.#pendingClient = info;
    else this.#o.store.update((r) => ({ ...r, client: info }));
  }

  tokens(): OAuthTokens | undefined {
    // A login starts from nothing, so a stale token never hides a broken sign-in.
    if (this.#o.mode === 'interactive') return this.#pendingTokens;
    return this.#o.store.read()?.tokens;
  }

  saveTokens(tokens: OAuthTokens): void {
    if (this.#o.mode === 'interactive') {
      this.#pendingTokens = tokens;
      return;
    }
    this.#o.store.update((r) => withTokens(r, tokens));
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    if (this.#o.mode !== 'interactive') return;
    // Checked before registration, so a refused server leaves nothing behind anywhere.
    const meta = state.authorizationServerMetadata;
    const server = this.#o.server;
    if (!meta) {
      throw new SwitchboardError('upstream-error', `Could not find the authorization server metadata of ${server} (at ${state.authorizationServerUrl}), so Switchboard cannot sign in to it safely.`);
    }
    if (!meta.code_challenge_methods_supported?.includes('S256')) {
      throw new SwitchboardError(
        'upstream-error',
        `The authorization server of ${server} does not support PKCE with S256 (code_challenge_methods_supported: ${JSON.stringify(meta.code_challenge_methods_supported ?? [])}), so Switchboard refuses to sign in to it.`,
      );
    }
    checkAuthorizationUrl(meta.authorization_endpoint, server);
  }

  async redirectToAuthorization(url: URL): Promise<void> {
    if (this.#o.mode !== 'interactive') throw this.#signInNeeded(true);
    const checked = checkAuthorizationUrl(url, this.#o.server);
    await this.#o.onAuthorizationUrl?.(checked);
  }

  saveCodeVerifier(verifier: string): void {
    this.#verifier = verifier;
  }

  codeVerifier(): string {
    if (!this.#verifier) throw new SwitchboardError('internal', 'No sign-in is in progress for this server.');
    return this.#verifier;
  }

  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    if (scope === 'verifier' || scope === 'discovery') return;
    if (this.#o.mode === 'interactive') {
      this.#pendingTokens = undefined;
      if (scope !== 'tokens') this.#pendingClient = undefined;
      return;
    }
    // The authorization server said these no longer work; keeping them would only retry failures.
    this.#o.store.forget(scope === 'tokens' ? 'tokens' : 'all');
  }

  /** interactive: writes what the flow produced. Returns the account when the server named one. */
  commit(): { account?: string } {
    const tokens = this.#pendingTokens;
    if (!tokens) throw new SwitchboardError('internal', 'The sign-in produced no tokens.');
    const client = this.#pendingClient ?? (this.#preRegistered() ? undefined : this.#o.store.read()?.client);
    const rec = withTokens({ url: '', ...(client ? { client } : {}) }, tokens);
    this.#o.store.update(() => rec);
    return rec.account ? { account: rec.account } : {};
  }

  #preRegistered(): OAuthClientInformationMixed | undefined {
    const o = this.#o.config.oauth;
    if (!o?.clientId) return undefined;
    const secret = o.clientSecret;
    if (secret === undefined) return { client_id: o.clientId };
    if (typeof secret === 'string') return { client_id: o.clientId, client_secret: secret };
    const value = this.#o.resolveSecret?.(secret.secret);
    if (value === undefined) {
      throw new SwitchboardError(
        'secret-missing',
        `${this.#o.server} needs the secret "${secret.secret}" (for oauth.clientSecret), which is not set; set it in the app or with \`switchboard secret set ${secret.secret}\``,
      );
    }
    return { client_id: o.clientId, client_secret: value };
  }

  #signInNeeded(again: boolean): SignInRequiredError {
    this.#o.onSignInNeeded?.();
    return new SignInRequiredError(this.#o.server, again);
  }
}

function withTokens(rec: SignInRecord, tokens: OAuthTokens): SignInRecord {
  const account = accountFromIdToken(tokens.id_token) ?? rec.account;
  const next: SignInRecord = { ...rec, tokens };
  if (tokens.expires_in !== undefined) next.expiresAt = Date.now() + tokens.expires_in * 1000;
  else delete next.expiresAt;
  if (account) next.account = account;
  return next;
}

/** The display name in an OpenID id_token. Shown to the user only, so the signature is not checked. */
export function accountFromIdToken(idToken: string | undefined): string | undefined {
  const payload = idToken?.split('.')[1];
  if (!payload) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    for (const k of ['email', 'preferred_username', 'name', 'sub']) {
      const v = claims[k];
      if (typeof v === 'string' && v) return v;
    }
  } catch {
    // Not a JWT: no account to show.
  }
  return undefined;
}

// The sign-in side of one remote Upstream: the provider its transport uses, and whether the
// user has to sign in again. Tokens are read from the secret store on every use, so a
// `switchboard login` in another process takes effect without restarting the engine.
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { UnauthorizedError as UnauthorizedErrorV2 } from '@modelcontextprotocol/client';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { ServerAuth } from '../../../../src-shared/api.ts';
import type { ServerConfig } from '../../../../src-shared/config/schema.ts';
import type { SecretStore } from '../../secrets/secret-store.ts';
import { SignInRequiredError, SwitchboardOAuthProvider } from './client-provider.ts';
import { refreshSingleFlight } from './refresh-single-flight.ts';
import { SignInStore } from './sign-in-store.ts';

export interface UpstreamAuthOptions {
  resolveSecret?: (name: string) => string | undefined;
  /** The auth state changed (status should be re-read). */
  onChange?: () => void;
}

export class UpstreamAuth {
  readonly server: string;
  readonly provider: SwitchboardOAuthProvider;
  /** Given to the transport: shares one refresh among concurrent calls. */
  readonly fetch: FetchLike = refreshSingleFlight();
  readonly #store: SignInStore;
  readonly #onChange: (() => void) | undefined;
  #needsSignIn = false;

  constructor(server: string, config: ServerConfig, secrets: SecretStore, opts: UpstreamAuthOptions = {}) {
    this.server = server;
    this.#store = new SignInStore(secrets, server, config.url!);
    this.#onChange = opts.onChange;
    this.provider = new SwitchboardOAuthProvider({
      server,
      config,
      store: this.#store,
      resolveSecret: opts.resolveSecret,
      mode: 'engine',
      onSignInNeeded: () => this.#set(true),
    });
  }

  get needsSignIn(): boolean {
    return this.#needsSignIn;
  }

  status(): ServerAuth {
    if (this.#needsSignIn) return { state: 'needs-sign-in' };
    const rec = this.#store.read();
    if (!rec?.tokens) return { state: 'none' };
    return rec.account ? { state: 'signed-in', account: rec.account } : { state: 'signed-in' };
  }

  /** The error calls get while the user has not signed in again. */
  signInError(): SignInRequiredError {
    return new SignInRequiredError(this.server, this.#store.read()?.client !== undefined);
  }

  /** A sign-in error for an authorization failure of the transport; undefined for anything else. */
  errorFor(err: unknown): SignInRequiredError | undefined {
    if (err instanceof SignInRequiredError) return err;
    const code = (err as { code?: unknown } | null)?.code;
    if (err instanceof UnauthorizedError || err instanceof UnauthorizedErrorV2 || code === 401) {
      this.#set(true);
      return this.signInError();
    }
    return undefined;
  }

  /** The server accepted the connection: whatever was wrong with the sign-in is fixed. */
  connected(): void {
    this.#set(false);
  }

  #set(needs: boolean): void {
    if (this.#needsSignIn === needs) return;
    this.#needsSignIn = needs;
    this.#onChange?.();
  }
}

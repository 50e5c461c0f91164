// Where a remote server's sign-in lives: one secret-store entry per server (`oauth.<server>`),
// never config.json. The entry remembers the server URL it was made for, so tokens are never
// presented to a different server after the user edits the URL.
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { SecretStore } from '../../secrets/secret-store.ts';

export interface SignInRecord {
  /** The server URL the tokens were issued for. */
  url: string;
  /** A dynamically registered client (pre-registered ones stay in config.json). */
  client?: OAuthClientInformationMixed;
  tokens?: OAuthTokens;
  /** When the access token stops working, in ms since the epoch (from expires_in). */
  expiresAt?: number;
  /** Who signed in, when the authorization server says (id_token claims). */
  account?: string;
}

/** The secret-store name of a server's sign-in record. */
export function signInSecretName(server: string): string {
  return `oauth.${server}`;
}

export class SignInStore {
  readonly #secrets: SecretStore;
  readonly #name: string;
  readonly #url: string;

  constructor(secrets: SecretStore, server: string, url: string) {
    this.#secrets = secrets;
    this.#name = signInSecretName(server);
    this.#url = url;
  }

  /** The record for this server and URL; a record made for another URL counts as none. */
  read(): SignInRecord | undefined {
    const raw = this.#secrets.get(this.#name);
    if (raw === undefined) return undefined;
    try {
      const rec = JSON.parse(raw) as SignInRecord;
      return rec && typeof rec === 'object' && rec.url === this.#url ? rec : undefined;
    } catch {
      return undefined;
    }
  }

  update(change: (rec: SignInRecord) => SignInRecord): void {
    const next = change(this.read() ?? { url: this.#url });
    this.#secrets.set(this.#name, JSON.stringify({ ...next, url: this.#url }));
  }

  /** Forgets tokens (and with `client`, the registration too). Returns whether anything was stored. */
  forget(what: 'tokens' | 'all'): boolean {
    const rec = this.read();
    if (!rec) return this.#secrets.delete(this.#name);
    if (what === 'all' || !rec.client) return this.#secrets.delete(this.#name);
    const had = rec.tokens !== undefined;
    this.#secrets.set(this.#name, JSON.stringify({ url: this.#url, client: rec.client }));
    return had;
  }
}

// Sign-ins started from the app (servers.signIn). The engine runs the same flow as
// `switchboard login` — its loopback listener included — but opens no browser: it hands the
// checked authorization URL back to the app, which opens it in the browser the user is in.
// When the redirect arrives the tokens are stored and the server reconnects.
import type { ServerAuth, StatusReport } from '../../../../src-shared/api.ts';
import type { ServerConfig } from '../../../../src-shared/config/schema.ts';
import { SwitchboardError } from '../../../../src-shared/errors.ts';
import type { SecretStore } from '../../secrets/secret-store.ts';
import { checkAuthorizationUrl } from './authorization-url.ts';
import { SignInStore, signInSecretName } from './sign-in-store.ts';

export interface AppSignInsOptions {
  secrets: SecretStore;
  /** The server's current config, undefined when config.json has no such server. */
  serverConfig: (name: string) => ServerConfig | undefined;
  /** Reconnects the server so it picks up (or drops) the stored tokens; resolves once it settled. */
  reconnect: (name: string) => Promise<void>;
  /** Time the user has to finish in the browser, in ms. Defaults to 300000 (5 min). */
  timeoutMs?: number;
}

type Flow = { state: 'waiting'; url: string; abort: AbortController; done: Promise<void> } | { state: 'failed'; message: string };

export class AppSignIns {
  readonly #o: AppSignInsOptions;
  readonly #flows = new Map<string, Flow>();
  /** Flows whose URL is not known yet, so a double click starts one flow, not two. */
  readonly #starting = new Map<string, Promise<{ url: string }>>();
  readonly #aborts = new Set<AbortController>();
  #disposed = false;

  constructor(opts: AppSignInsOptions) {
    this.#o = opts;
  }

  /** Starts a sign-in (or returns the one already waiting) and resolves with the URL to open. */
  async start(name: string): Promise<{ url: string }> {
    if (this.#disposed) throw new SwitchboardError('engine-unavailable', 'Switchboard is shutting down; try again once it runs.');
    const config = this.#config(name);
    const current = this.#flows.get(name);
    // The user may have closed the tab: the same flow (same state and PKCE verifier) still works.
    if (current?.state === 'waiting') return { url: current.url };
    let starting = this.#starting.get(name);
    if (!starting) {
      starting = this.#begin(name, config).finally(() => this.#starting.delete(name));
      this.#starting.set(name, starting);
    }
    return starting;
  }

  async #begin(name: string, config: ServerConfig): Promise<{ url: string }> {
    const abort = new AbortController();
    this.#aborts.add(abort);
    let shown!: (url: URL) => void;
    const urlKnown = new Promise<URL>((resolve) => (shown = resolve));
    // The sign-in flow (and the HTTP transports it needs) loads only when someone signs in.
    const { signIn } = await import('./sign-in.ts');
    const flow = signIn({
      server: name,
      config,
      secrets: this.#o.secrets,
      resolveSecret: (n) => this.#o.secrets.get(n),
      // The URL goes to the app instead of a terminal, and no browser opens on the engine's side.
      print: () => {},
      open: async (url) => {
        shown(url);
        return { opened: false, reason: 'the app opens it' };
      },
      timeoutMs: this.#o.timeoutMs ?? 300_000,
      signal: abort.signal,
    });
    let url: string;
    try {
      const first = await Promise.race([urlKnown, flow.then(() => undefined)]);
      if (!first) throw new SwitchboardError('upstream-error', `${name} did not ask for a sign-in, so there was nothing to store.`);
      // Checked again here: whatever the flow hands over, only https: or loopback http: leaves the engine.
      url = checkAuthorizationUrl(first, name).href;
    } catch (err) {
      abort.abort();
      this.#aborts.delete(abort);
      await flow.catch(() => {});
      throw asSwitchboardError(err, name);
    }
    const done = flow.finally(() => this.#aborts.delete(abort)).then(
      async () => {
        await this.#o.reconnect(name).catch(() => {});
        if (this.#flows.get(name) === entry) this.#flows.delete(name);
      },
      (err: unknown) => {
        if (this.#flows.get(name) === entry && !this.#disposed) this.#flows.set(name, { state: 'failed', message: asSwitchboardError(err, name).message });
      },
    );
    const entry: Flow = { state: 'waiting', url, abort, done };
    if (this.#disposed) {
      abort.abort();
      await done;
      throw new SwitchboardError('engine-unavailable', 'Switchboard is shutting down; try again once it runs.');
    }
    this.#flows.set(name, entry);
    return { url };
  }

  /** Forgets the server's tokens and registration, stops a waiting sign-in, and reconnects it. */
  async signOut(name: string): Promise<{ ok: true; removed: boolean }> {
    this.#config(name);
    const current = this.#flows.get(name);
    this.#flows.delete(name);
    if (current?.state === 'waiting') {
      current.abort.abort();
      await current.done;
    }
    const removed = this.#o.secrets.delete(signInSecretName(name));
    await this.#o.reconnect(name).catch(() => {});
    return { ok: true, removed };
  }

  /** Adds what the status report cannot know by itself: app sign-ins and "sign in again". */
  annotate(report: StatusReport): StatusReport {
    for (const [name, st] of Object.entries(report.servers)) {
      if (st.kind !== 'remote') continue;
      const auth: ServerAuth = { ...st.auth };
      const flow = this.#flows.get(name);
      if (flow) auth.signIn = flow.state === 'waiting' ? { state: 'waiting', url: flow.url } : { state: 'failed', message: flow.message };
      const url = this.#o.serverConfig(name)?.url;
      if (auth.state === 'needs-sign-in' && url !== undefined && new SignInStore(this.#o.secrets, name, url).read()?.client !== undefined) auth.again = true;
      st.auth = auth;
    }
    return report;
  }

  async dispose(): Promise<void> {
    this.#disposed = true;
    const waiting = [...this.#flows.values()].filter((f) => f.state === 'waiting');
    this.#flows.clear();
    for (const a of this.#aborts) a.abort();
    await Promise.all([...waiting.map((f) => f.done), ...[...this.#starting.values()].map((p) => p.catch(() => {}))]);
  }

  #config(name: string): ServerConfig {
    const config = this.#o.serverConfig(name);
    if (!config) throw new SwitchboardError('unknown-server', `There is no server "${name}" in config.json.`);
    if (config.url === undefined) {
      throw new SwitchboardError('bad-request', `${name} is a local server (it has a "command"); only remote servers (with a "url") sign in.`);
    }
    return config;
  }
}

function asSwitchboardError(err: unknown, server: string): SwitchboardError {
  if (err instanceof SwitchboardError) return err;
  return new SwitchboardError('upstream-error', `Could not sign in to ${server}: ${err instanceof Error ? err.message : String(err)}; nothing was stored.`);
}

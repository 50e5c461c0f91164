// The control API's `catalog.*` methods (contract: src-shared/api.ts), behind the app's Catalog
// page: search, prepare (the approval screen's content) and install. Install never trusts what
// the page shows: it fetches the entry again, rebuilds the plan, and writes only with
// `approved: true`; secret values go straight to the secret store.
import type { CatalogPrepared, ControlApi } from '../../../src-shared/api.ts';
import { SwitchboardError } from '../../../src-shared/errors.ts';
import { checkServer } from '../clients/doctor.ts';
import { isCodeLoadingEnv } from '../trust/code-loading-env.ts';
import type { SecretStore } from '../secrets/secret-store.ts';
import type { CarriedRuntime } from '../upstream/carried-runtime.ts';
import { linkPlan, parseInstallLink, type InstallLink } from './install-link.ts';
import { buildPlan, resolvePlan, serverKeyFor, showTemplate, type InstallPlan } from './install-plan.ts';
import { findInstalled, readInstalled, recordInstalled, toHits } from './installed.ts';
import { RegistryClient, registryTimeoutMs } from './registry-client.ts';
import { networkNeed } from './network-need.ts';
import { probeSignIn } from './sign-in-probe.ts';
import type { RegistryEntry } from './server-json.ts';
import { findShipped, mergeCatalogs, plainLabels, searchShipped, shippedKey } from './shipped-catalog.ts';

export interface CatalogControlDeps {
  home: string;
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
  /** settings.registry of the config in force (undefined: the official registry). */
  registry(): unknown;
  servers(): Record<string, unknown>;
  setServer(name: string, config: Record<string, unknown>): Promise<void>;
  secrets: SecretStore;
  loginPath(): Promise<string>;
  /** The Node the engine lends to `npx`/`node` servers when they are missing (carried-runtime.ts); defaults to carriedRuntime(), null for none. */
  runtime?: CarriedRuntime | null;
}

type CatalogMethods = 'catalog.search' | 'catalog.prepare' | 'catalog.install';
type CatalogHandlers = { [M in CatalogMethods]: (params: ControlApi[M]['params']) => Promise<ControlApi[M]['result']> };

/** The config key an entry goes to: the one it was installed under before, else a free one. */
export function chooseServerName(entry: RegistryEntry, installedAs: string | undefined, taken: (name: string) => boolean, base = buildPlan(entry).serverName): string {
  if (installedAs) return installedAs;
  let name = base;
  for (let n = 2; taken(name); n++) name = `${base}-${n}`;
  return name;
}

export function catalogHandlers(deps: CatalogControlDeps): CatalogHandlers {
  const client = () => new RegistryClient({ baseUrl: deps.registry() as string | undefined, timeoutMs: registryTimeoutMs(deps.env) });

  /** A link that carries its own entry: planned under a free key (as the CLI names it), never trusted beyond config.json's schema. */
  function planForLink(link: Extract<InstallLink, { kind: 'entry' }>): InstallPlan {
    const servers = deps.servers();
    const base = serverKeyFor(`link/${link.name}`);
    let serverName = base;
    for (let n = 2; serverName in servers; n++) serverName = `${base}-${n}`;
    return linkPlan(link, serverName);
  }

  /** The registry name and version a request means: given as such, or through a switchboard://install?name=… link. */
  function target(p: { name?: unknown; version?: unknown; link?: unknown }): { link: Extract<InstallLink, { kind: 'entry' }> } | { name: unknown; version: unknown } {
    if (p.link === undefined) return { name: p.name, version: p.version };
    if (typeof p.link !== 'string') throw new SwitchboardError('bad-request', 'The install link must be text.');
    const link = parseInstallLink(p.link);
    return link.kind === 'entry' ? { link } : { name: link.name, version: link.version };
  }

  async function planFor(name: unknown, version: unknown): Promise<{ plan: InstallPlan; entry: RegistryEntry; update: string | null; registry: string }> {
    if (typeof name !== 'string' || !name) throw new SwitchboardError('bad-request', 'Missing the registry name of the server.');
    // A shipped server is added from the app's own list: no network, whatever the registry says.
    const shipped = version === undefined || version === 'shipped' ? findShipped(name) : undefined;
    if (shipped) {
      const servers = deps.servers();
      const serverName = chooseServerName(shipped, undefined, (n) => n in servers, shippedKey(shipped.name));
      return { plan: buildPlan(shipped, { serverName }), entry: shipped, update: null, registry: '' };
    }
    const r = client();
    const entry = await r.get(name, typeof version === 'string' && version ? version : 'latest');
    if (!entry) throw new SwitchboardError('not-found', `The MCP Registry at ${r.baseUrl} has no "${name}".`);
    if (entry.status === 'deleted') throw new SwitchboardError('denied', `${entry.name} ${entry.version} was deleted from the registry; Switchboard will not install it.`);
    const rec = findInstalled(await readInstalled(deps.home), entry.name);
    const servers = deps.servers();
    const serverName = chooseServerName(entry, rec && rec.serverName in servers ? rec.serverName : undefined, (n) => n in servers);
    return { plan: buildPlan(entry, { serverName }), entry, update: rec && rec.serverName === serverName ? rec.version : null, registry: r.baseUrl };
  }

  return {
    'catalog.search': async (p) => {
      if (typeof p.text !== 'string') throw new SwitchboardError('bad-request', 'Type part of a server name to search for.');
      const text = p.text.trim();
      const r = client();
      const shipped = searchShipped(text);
      let live: RegistryEntry[] = [];
      let offline: string | undefined;
      // Empty text lists the shipped servers alone: the page opens at once, online or not.
      if (text) {
        try {
          live = (await r.search(text, { limit: 50 })).servers;
        } catch (err) {
          if (!(err instanceof SwitchboardError) || err.code !== 'upstream-error') throw err;
          offline = err.message;
        }
      }
      const names = new Set(shipped.map((e) => e.name));
      const servers = toHits(mergeCatalogs(shipped, live), await readInstalled(deps.home)).map((h) => (names.has(h.name) ? { ...h, shipped: true as const } : h));
      return { registry: r.baseUrl, servers, ...(offline ? { offline } : {}) };
    },
    'catalog.prepare': async (p): Promise<CatalogPrepared> => {
      const t = target(p);
      if ('link' in t) {
        const plan = planForLink(t.link);
        return screen(plan, { registry: '', name: t.link.name, version: '', status: 'active', description: plan.entry.description }, null, t.link.from);
      }
      const { plan, entry, update, registry } = await planFor(t.name, t.version);
      return screen(plan, { ...entry, registry }, update);
    },
    'catalog.install': async (p) => {
      if (p.approved !== true) throw new SwitchboardError('denied', 'Nothing was written: the install was not approved.');
      const t = target(p);
      const reg = 'link' in t ? null : await planFor(t.name, t.version);
      const plan = 'link' in t ? planForLink(t.link) : reg!.plan;
      const answers = new Map<number, string>();
      for (const [k, v] of Object.entries(p.answers ?? {})) if (typeof v === 'string' && v !== '') answers.set(Number(k), v);
      const resolved = resolvePlan(plan, answers);
      for (const [k, v] of Object.entries(resolved.secrets)) deps.secrets.set(k, v);
      await deps.setServer(plan.serverName, resolved.config);
      if (reg && reg.registry) await recordInstalled(deps.home, { registry: reg.registry, name: reg.entry.name, version: reg.entry.version, serverName: plan.serverName, installedAt: new Date().toISOString() });
      // A remote server that wants a sign-in (OAuth) is added all the same; the page offers the sign-in next.
      const signIn = plan.kind === 'remote' && (await probeSignIn(resolved.config)) === 'needed';
      return { serverName: plan.serverName, config: resolved.config, secrets: Object.keys(resolved.secrets), ...(signIn ? { signIn: 'needed' as const } : {}) };
    },
  };

  /** The approval screen's content for a plan: exactly what would run, and what the runner check found. */
  async function screen(
    plan: InstallPlan,
    entry: { registry: string; name: string; version: string; status: RegistryEntry['status']; description: string },
    update: string | null,
    from?: NonNullable<CatalogPrepared['link']>['from'],
  ): Promise<CatalogPrepared> {
    const shipped = entry.registry === '' && !from && findShipped(entry.name) !== undefined;
    const network = networkNeed(plan, deps.env, deps.platform);
    const runner =
      plan.kind === 'package'
        ? await checkServer(plan.serverName, { command: plan.command! }, { home: deps.home, env: deps.env, platform: deps.platform, ...(deps.runtime !== undefined ? { runtime: deps.runtime } : {}) }, await deps.loginPath(), true)
        : null;
    const kv = (m: InstallPlan['env']) => Object.fromEntries(Object.entries(m).map(([k, v]) => [k, { value: showTemplate(v.template, plan), secret: v.secret }]));
    const env = Object.fromEntries(Object.entries(kv(plan.env)).map(([k, v]) => [k, isCodeLoadingEnv(k) ? { ...v, codeLoading: true as const } : v]));
    return {
      registry: entry.registry,
      name: entry.name,
      version: entry.version,
      status: entry.status,
      description: entry.description,
      serverName: plan.serverName,
      source: plan.source,
      updateFrom: update,
      inputs: shipped ? plainLabels(entry.name, plan.inputs) : plan.inputs,
      ...(shipped ? { shipped: true as const } : {}),
      ...(network ? { network } : {}),
      ...(from ? { link: { from } } : {}),
      ...(plan.kind === 'package'
        ? { command: plan.command!, args: plan.args.map((t) => showTemplate(t, plan)), env, runner: { program: plan.runner!, found: runner!.resolved, advice: runner!.advice } }
        : { url: showTemplate(plan.url!, plan), transport: plan.transport!, headers: kv(plan.headers) }),
    };
  }
}

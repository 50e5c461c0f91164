// The control API's `catalog.*` methods (contract: src-shared/api.ts), behind the app's Catalog
// page: search, prepare (the approval screen's content) and install. Install never trusts what
// the page shows: it fetches the entry again, rebuilds the plan, and writes only with
// `approved: true`; secret values go straight to the secret store.
import type { CatalogPrepared, ControlApi } from '../../../src-shared/api.ts';
import { SwitchboardError } from '../../../src-shared/errors.ts';
import { checkServer } from '../clients/doctor.ts';
import type { SecretStore } from '../secrets/secret-store.ts';
import { buildPlan, resolvePlan, showTemplate, type InstallPlan } from './install-plan.ts';
import { findInstalled, readInstalled, recordInstalled, toHits } from './installed.ts';
import { RegistryClient } from './registry-client.ts';
import type { RegistryEntry } from './server-json.ts';

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
  fetch?: typeof fetch;
}

type CatalogMethods = 'catalog.search' | 'catalog.prepare' | 'catalog.install';
type CatalogHandlers = { [M in CatalogMethods]: (params: ControlApi[M]['params']) => Promise<ControlApi[M]['result']> };

/** The config key an entry goes to: the one it was installed under before, else a free one. */
export function chooseServerName(entry: RegistryEntry, installedAs: string | undefined, taken: (name: string) => boolean): string {
  if (installedAs) return installedAs;
  const base = buildPlan(entry).serverName;
  let name = base;
  for (let n = 2; taken(name); n++) name = `${base}-${n}`;
  return name;
}

export function catalogHandlers(deps: CatalogControlDeps): CatalogHandlers {
  const client = () => new RegistryClient({ baseUrl: deps.registry() as string | undefined, ...(deps.fetch ? { fetch: deps.fetch } : {}) });

  async function planFor(name: unknown, version: unknown): Promise<{ plan: InstallPlan; entry: RegistryEntry; update: string | null; registry: string }> {
    if (typeof name !== 'string' || !name) throw new SwitchboardError('bad-request', 'Missing the registry name of the server.');
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
      if (typeof p.text !== 'string' || !p.text.trim()) throw new SwitchboardError('bad-request', 'Type part of a server name to search for.');
      const r = client();
      const page = await r.search(p.text.trim(), { limit: 50 });
      const servers = toHits(page.servers, await readInstalled(deps.home));
      return { registry: r.baseUrl, servers };
    },
    'catalog.prepare': async (p): Promise<CatalogPrepared> => {
      const { plan, entry, update, registry } = await planFor(p.name, p.version);
      const runner = plan.kind === 'package' ? await checkServer(plan.serverName, { command: plan.command! }, { home: deps.home, env: deps.env, platform: deps.platform }, await deps.loginPath()) : null;
      const kv = (m: InstallPlan['env']) => Object.fromEntries(Object.entries(m).map(([k, v]) => [k, { value: showTemplate(v.template, plan), secret: v.secret }]));
      return {
        registry,
        name: entry.name,
        version: entry.version,
        status: entry.status,
        description: entry.description,
        serverName: plan.serverName,
        source: plan.source,
        updateFrom: update,
        inputs: plan.inputs,
        ...(plan.kind === 'package'
          ? { command: plan.command!, args: plan.args.map((t) => showTemplate(t, plan)), env: kv(plan.env), runner: { program: plan.runner!, found: runner!.resolved, advice: runner!.advice } }
          : { url: showTemplate(plan.url!, plan), transport: plan.transport!, headers: kv(plan.headers) }),
      };
    },
    'catalog.install': async (p) => {
      if (p.approved !== true) throw new SwitchboardError('denied', 'Nothing was written: the install was not approved.');
      const { plan, entry, registry } = await planFor(p.name, p.version);
      const answers = new Map<number, string>();
      for (const [k, v] of Object.entries(p.answers ?? {})) if (typeof v === 'string' && v !== '') answers.set(Number(k), v);
      const resolved = resolvePlan(plan, answers);
      for (const [k, v] of Object.entries(resolved.secrets)) deps.secrets.set(k, v);
      await deps.setServer(plan.serverName, resolved.config);
      await recordInstalled(deps.home, { registry, name: entry.name, version: entry.version, serverName: plan.serverName, installedAt: new Date().toISOString() });
      return { serverName: plan.serverName, config: resolved.config, secrets: Object.keys(resolved.secrets) };
    },
  };
}

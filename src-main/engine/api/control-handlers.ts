// The control API's implementation (contract: src-shared/api.ts). Every transport — engine
// socket, HTTP /api/, Electron IPC — ends here.
import { CONTROL_METHODS, type ControlApi, type ControlMethod, type StatusReport } from '../../../src-shared/api.ts';
import { parseControlParams } from '../../../src-shared/api-schema.ts';
import { SwitchboardError } from '../../../src-shared/errors.ts';
import { exposedToolNames } from '../../../src-shared/names.ts';
import type { ConfigStore } from '../config/store.ts';
import type { Gateway } from '../gateway/gateway.ts';
import type { HomePaths } from '../platform/home.ts';
import type { AuditLog } from '../records/audit-log.ts';
import type { RunStore } from '../records/run-store.ts';
import type { SecretStore } from '../secrets/secret-store.ts';
import type { PinStore } from '../trust/pins.ts';
import { proposalPointer, proposedBy } from '../trust/proposals.ts';
import type { Supervisor } from '../upstream/supervisor.ts';
import type { CodeRunner } from '../codemode/code-runner.ts';
import { testServerConnection } from '../upstream/test-connection.ts';
import { ownEntry, ProfileConfig, type ServerConfig } from '../../../src-shared/config/schema.ts';
import { configPointer } from '../../../src-shared/config/paths.ts';
import { catalogHandlers } from '../catalog/catalog-control.ts';
import { releaseProposedBundles } from '../catalog/bundle-store.ts';
import { homeHandlers } from './home-handlers.ts';
import { loginShellPath } from '../upstream/command-resolve.ts';
import { defaultHome } from '../platform/home.ts';
import { AppSignIns } from '../upstream/oauth/app-sign-ins.ts';
import { isLimitedClient } from '../../../src-shared/client-limits.ts';
import { limitFigures, viewLimits } from '../gateway/limit-checks.ts';
import type { SkillStore } from '../codemode/skills.ts';
import { missingTools, type SkillRecord } from '../../../src-shared/codemode/skill-catalog.ts';
import type { ApprovalCenter } from '../codemode/approvals.ts';
import type { SkillInfo } from '../../../src-shared/api.ts';

type Handlers = { [M in ControlMethod]: (params: ControlApi[M]['params']) => Promise<ControlApi[M]['result']> | ControlApi[M]['result'] };

const KNOWN = new Set<string>(CONTROL_METHODS);

/** What the control API needs of the engine (declared here, so it depends on no more of it than it uses). */
export interface ControlEngine {
  readonly paths: Pick<HomePaths, 'home' | 'config' | 'logsDir'>;
  readonly config: Pick<ConfigStore, 'config' | 'raw' | 'get' | 'set' | 'unset' | 'update' | 'text'>;
  readonly gateway: Pick<Gateway, 'view' | 'draftView' | 'settle' | 'unknownProfileMessage'>;
  readonly supervisor: Pick<Supervisor, 'get'>;
  readonly pins: Pick<PinStore, 'withheld' | 'changedTools'>;
  readonly secrets: SecretStore;
  readonly runs: Pick<RunStore, 'list' | 'get'>;
  readonly audit: Pick<AuditLog, 'list' | 'dropped'>;
  readonly approvals: Pick<ApprovalCenter, 'list' | 'decide'>;
  readonly skills: Pick<SkillStore, 'list' | 'save' | 'remove'>;
  status(): StatusReport;
  approveTools(server: string): string[];
}

export class ControlHandler {
  readonly #engine: ControlEngine;
  readonly #runner: CodeRunner;
  readonly #handlers: Handlers;
  readonly #signIns: AppSignIns;

  constructor(engine: ControlEngine, runner: CodeRunner) {
    this.#engine = engine;
    this.#runner = runner;
    this.#signIns = new AppSignIns({
      secrets: engine.secrets,
      serverConfig: (name) => ownEntry(engine.config.config.servers, name),
      reconnect: (name) => reconnect(engine, name),
    });
    this.#handlers = this.#build();
  }

  /** Stops sign-ins still waiting for a browser (their loopback listeners close). */
  dispose(): Promise<void> {
    return this.#signIns.dispose();
  }

  /** Requests being answered (an engine handing its home over waits for them). */
  inFlight = 0;

  async handle(method: string, params: unknown): Promise<unknown> {
    if (!KNOWN.has(method)) throw new SwitchboardError('bad-request', `Unknown API method "${method}".`);
    const fn = this.#handlers[method as ControlMethod] as (p: unknown) => unknown;
    this.inFlight++;
    try {
      // Every transport's params are checked here, against the contract's schema for the method.
      return await fn(parseControlParams(method as ControlMethod, params));
    } finally {
      this.inFlight--;
    }
  }

  #build(): Handlers {
    const e = this.#engine;
    const requireString = (v: unknown, what: string): string => {
      if (typeof v !== 'string' || v === '') throw new SwitchboardError('bad-request', `Missing ${what}.`);
      return v;
    };
    return {
      'status': () => this.#signIns.annotate(e.status()),
      ...homeHandlers({
        home: e.paths.home,
        // Not resolveHome(): a client's shim has no $SWITCHBOARD_HOME, so only the OS default may go unnamed.
        homeIsDefault: e.paths.home === defaultHome(),
        env: process.env,
        platform: process.platform,
        config: e.config,
        configFile: e.paths.config,
      }),
      'servers.restart': async (p) => {
        const u = e.supervisor.get(requireString(p.name, 'the server name'));
        if (!u) throw new SwitchboardError('unknown-server', `There is no server "${p.name}".`);
        await u.restart();
        return { ok: true };
      },
      'servers.log': (p) => {
        const u = e.supervisor.get(requireString(p.name, 'the server name'));
        if (!u) throw new SwitchboardError('unknown-server', `There is no server "${p.name}".`);
        return { lines: u.logTail(p.lines ?? 100) };
      },
      'servers.tools': (p) => {
        const name = requireString(p.name, 'the server name');
        const u = e.supervisor.get(name);
        if (!u) throw new SwitchboardError('unknown-server', `There is no server "${name}".`);
        const view = p.profile ? e.gateway.view(p.profile) : undefined;
        const own = view && p.client !== undefined ? view.forClient(p.client) : undefined;
        const tools = u.state === 'ready' ? u.tools() : [];
        const names = exposedToolNames(tools.map((t) => ({ server: name, tool: t.name })), { namespace: true });
        return {
          tools: tools.map((t) => ({
            name: t.name,
            exposedName: names.get(name + '\u0000' + t.name) ?? `${name}__${t.name}`,
            description: t.description,
            allowed: !e.pins.withheld(name, t.name) && (view ? view.allows(name, t.name) : true),
            ...(own ? { forClient: !e.pins.withheld(name, t.name) && own.allows(name, t.name) } : {}),
            ...(e.pins.withheld(name, t.name) ? { changed: true } : {}),
          })),
        };
      },
      'servers.test': async (p) => {
        // Testing starts the command: not for a proposal the user has not approved (docs/configuration.md).
        const by = p.config && typeof p.config === 'object' ? proposedBy(p.config as ServerConfig) : undefined;
        if (by !== undefined) throw new SwitchboardError('denied', `${p.name ? `"${p.name}"` : 'This server'} was proposed by ${by} and is not approved yet; testing it would run its command. Approve it first (Servers page, or \`switchboard approve ${p.name ?? 'NAME'}\`).`);
        return testServerConnection(p.config, { logsDir: e.paths.logsDir });
      },
      'servers.approve': async (p) => {
        const name = requireString(p.name, 'the server name');
        const entry = ownEntry(e.config.config.servers, name);
        if (!entry && !e.supervisor.get(name) && !e.pins.changedTools(name).length) throw new SwitchboardError('unknown-server', `There is no server "${name}".`);
        // A server proposed from outside: removing `proposedBy` is the approval; the config change
        // starts it. A proposed bundle is unpacked first (it was kept packed until now).
        const proposed = entry !== undefined && proposedBy(entry) !== undefined;
        if (proposed) await releaseProposedBundles(e.paths.home, entry);
        const server = proposed && (await e.config.unset(proposalPointer(name)));
        return { ok: true, approved: e.approveTools(name), ...(server ? { server: true } : {}) };
      },
      'servers.signIn': (p) => this.#signIns.start(requireString(p.name, 'the server name')),
      'servers.signOut': (p) => this.#signIns.signOut(requireString(p.name, 'the server name')),
      'profiles.catalog': async (p) => {
        let view;
        if (p.draft !== undefined) {
          // The editor's unsaved profile: sized over the live catalogs, nothing written.
          const draft = ProfileConfig.safeParse(p.draft);
          if (!draft.success) throw new SwitchboardError('bad-request', `The draft profile is not valid: ${draft.error.issues.map((i) => i.message).join('; ')}.`);
          view = e.gateway.draftView(p.profile || 'draft', draft.data);
        } else {
          view = e.gateway.view(requireString(p.profile, 'the profile name'));
          if (!view) throw new SwitchboardError('unknown-profile', e.gateway.unknownProfileMessage(p.profile ?? ''));
        }
        // A cold engine: size the catalog once the profile's servers have started (bounded).
        await e.gateway.settle(view);
        const cat = view.codeCatalog();
        return { declarations: cat.declarations, declarationChars: cat.declarationChars, inline: cat.inline, limit: 12_000 };
      },
      'profiles.clientLimits': async (p) => {
        const view = e.gateway.view(requireString(p.profile, 'the profile name'));
        if (!view) throw new SwitchboardError('unknown-profile', e.gateway.unknownProfileMessage(p.profile ?? ''));
        const id = requireString(p.client, 'the client id');
        await e.gateway.settle(view);
        if (!isLimitedClient(id)) return { limits: null, tools: view.listTools().length, warnings: [] };
        const { tools, warnings, shortened } = viewLimits(view, id);
        return { limits: limitFigures(id), tools, warnings, ...(shortened ? { shortened } : {}) };
      },
      'runs.list': (p) => ({ runs: e.runs.list(p) }),
      'runs.get': (p) => {
        const run = e.runs.get(requireString(p.id, 'the run id'));
        if (!run) throw new SwitchboardError('not-found', `No run "${p.id}" in the history.`);
        return { run };
      },
      'audit.list': (p) => {
        const dropped = e.audit.dropped(p.client);
        return { entries: e.audit.list(p), ...(dropped.length ? { dropped } : {}) };
      },
      'exec': async (p) => {
        const view = e.gateway.view(requireString(p.profile, 'the profile name'));
        if (!view) throw new SwitchboardError('unknown-profile', e.gateway.unknownProfileMessage(p.profile));
        if (view.surface !== 'code') {
          throw new SwitchboardError('bad-request', `Profile "${p.profile}" uses the tools surface; set "surface": "code" to run code against it.`);
        }
        const r = await this.#runner.execute(view, { client: p.client ?? 'switchboard-cli' }, requireString(p.code, 'code'));
        const text = r.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
        return { text, isError: Boolean(r.isError), runId: r.runId };
      },
      'approvals.list': () => ({ pending: e.approvals.list() }),
      'approvals.decide': (p) => {
        e.approvals.decide(requireString(p.id, 'the approval id'), p.approve);
        return { ok: true };
      },
      'skills.list': (p) => {
        const view = p.profile ? e.gateway.view(p.profile) : undefined;
        if (p.profile && !view) throw new SwitchboardError('unknown-profile', e.gateway.unknownProfileMessage(p.profile));
        return { skills: e.skills.list().map((s) => skillInfo(s, view)) };
      },
      'skills.save': async (p) => {
        const id = requireString(p.runId, 'the run id');
        const run = e.runs.get(id);
        if (!run) throw new SwitchboardError('not-found', `No run "${id}" in the history; \`switchboard runs\` lists them.`);
        const skill = await e.skills.save(run, { name: requireString(p.name, 'the skill name'), input: p.input, description: p.description, replace: p.replace });
        return { skill: skillInfo(skill, e.gateway.view(skill.profile)) };
      },
      'skills.remove': async (p) => ({ ok: true, removed: await e.skills.remove(requireString(p.name, 'the skill name')) }),
      ...catalogHandlers({
        home: e.paths.home,
        env: process.env,
        platform: process.platform,
        registry: () => (e.config.raw.settings as { registry?: unknown } | undefined)?.registry,
        servers: () => e.config.config.servers,
        setServer: (name, cfg) => e.config.set(configPointer('servers', name), cfg),
        secrets: e.secrets,
        loginPath: loginShellPath,
      }),
      'engine.stop': () => {
        setTimeout(() => process.kill(process.pid, 'SIGTERM'), 20);
        return { ok: true };
      },
    };
  }
}

/** A skill as listed: with a profile, whether that profile can run it (its tools are all there). */
function skillInfo(s: SkillRecord, view: Parameters<typeof missingTools>[1] | undefined): SkillInfo {
  if (!view) return { ...s };
  const missing = missingTools(s, view);
  return { ...s, available: missing.length === 0, ...(missing.length ? { missing } : {}) };
}

/** Restarts a server and waits (up to 10 s) until it settled, as `switchboard login` does. */
async function reconnect(e: ControlEngine, name: string): Promise<void> {
  const u = e.supervisor.get(name);
  if (!u) return;
  await u.restart();
  // A failed or signed-out server settles too; the status report says how.
  await u.waitReady(10_000).catch(() => {});
}

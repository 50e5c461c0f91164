// The control API's `clients.*` methods (contract: src-shared/api.ts): the app's Connect page
// does through these what `switchboard connect|disconnect|undo|import` do on the command line,
// with the same connectors, checks and import steps.
import type { ClientInfo, ClientWriteResult, ConnectOutcome, ControlApi, ImportPlanEntry } from '../../../src-shared/api.ts';
import { SwitchboardError } from '../../../src-shared/errors.ts';
import { assertInstalled, assertKnownProfile } from './client-lookup.ts';
import { readClientState } from './client-state.ts';
import { getConnector, listConnectors, entryName, type Connector, type ConnectorOptions } from './connector.ts';
import { applyImport, importProfile, planFor } from './import-apply.ts';
import { previewServer } from './import.ts';
import { isDemoProfile } from '../../../src-shared/config/starter-profiles.ts';
import { checkListing } from './listing.ts';
import { defaultShimEntry } from '../platform/shim-entry.ts';

export interface ClientControlDeps extends ConnectorOptions {
  /** No --home / $SWITCHBOARD_HOME in force: entries then leave out --home. */
  homeIsDefault: boolean;
  /** Profile names of the config in force. */
  profiles(): string[];
  /** config.json's current content (unknown keys included), to plan an import against. */
  raw(): Record<string, unknown>;
  /** A validated, atomic edit of config.json (ConfigStore.update). */
  updateConfig(mutate: (raw: Record<string, unknown>) => Record<string, unknown>): Promise<void>;
}

type ClientMethods = 'clients.list' | 'clients.connect' | 'clients.disconnect' | 'clients.undo' | 'clients.restoreBackup' | 'clients.fileText' | 'clients.trustFolder' | 'clients.importPlan' | 'clients.importApply';
type ClientHandlers = { [M in ClientMethods]: (params: ControlApi[M]['params']) => Promise<ControlApi[M]['result']> };

function requireString(v: unknown, what: string): string {
  if (typeof v !== 'string' || v === '') throw new SwitchboardError('bad-request', `Missing ${what}.`);
  return v;
}

/** Re-exported for the API's users; the preview itself lives beside the plan (import.ts). */
export { previewServer };

export function clientHandlers(deps: ClientControlDeps): ClientHandlers {
  const opts: ConnectorOptions = { home: deps.home, env: deps.env, platform: deps.platform };
  const shim = (profile: string) => defaultShimEntry(deps.home, deps.homeIsDefault, profile);
  const connector = (id: unknown): Connector => getConnector(requireString(id, 'the client id'), opts);

  async function trustInfo(c: Connector): Promise<Pick<ClientInfo, 'trust'>> {
    const file = c.trustFile();
    if (!file) return {};
    // An unreadable trust list shows as empty here; trustFolder reports why it cannot be written.
    return { trust: { file, folders: await c.trustedFolders().catch(() => []) } };
  }

  async function describe(c: Connector, known: string[]): Promise<ClientInfo> {
    const base = {
      id: c.id,
      displayName: c.displayName,
      ...(c.kind === 'copy-paste' ? { kind: 'copy-paste' as const } : {}),
      installed: c.installed(),
      configPath: c.configPath(),
      lookedAt: c.lookedAt(),
      nextStep: c.spec.nextStep,
      canUndo: (await readClientState(deps.home, c.stateId)).lastWrite !== undefined,
      ...(await trustInfo(c)),
    };
    let connected: string[];
    try {
      connected = await c.connectedProfiles();
    } catch (err) {
      // An unreadable file is reported, never fatal to the list: the other clients still show.
      const profiles = known.map((profile) => ({ profile, connected: false, matches: false, drift: 'none' as const, known: true }));
      const backup = await c.readableBackup().catch(() => null);
      return { ...base, connected: [], profiles, problem: (err as Error).message, ...(backup ? { backup: { time: backup.time } } : {}) };
    }
    const names = [...known, ...connected.filter((p) => !known.includes(p))];
    const profiles = await Promise.all(
      names.map(async (profile) => {
        const s = await c.status(profile, shim(profile));
        return { profile, connected: s.connected, matches: s.matches, drift: s.drift, known: known.includes(profile) };
      }),
    );
    return { ...base, connected, profiles };
  }

  return {
    'clients.list': async () => {
      const known = deps.profiles();
      return { clients: await Promise.all(listConnectors(opts).map((c) => describe(c, known))) };
    },
    'clients.connect': async (p) => {
      const c = connector(p.client);
      const profile = requireString(p.profile, 'the profile name');
      assertKnownProfile(profile, deps.profiles());
      if (c.kind === 'copy-paste') {
        // Nothing to write: the steps are the outcome, shown where a connect's next steps go.
        return { path: '', changed: false, backup: null, via: 'file' as const, outcome: { nextSteps: c.pasteSteps(profile, shim(profile)), warnings: [], copyPaste: true } };
      }
      const installed = c.installed();
      if (!p.force) assertInstalled(c, `Install it first, or choose "Connect anyway" to create ${c.configPath()}.`);
      const r = await c.connect(profile, shim(profile));
      const outcome = connectOutcome(c, profile, r, installed, await c.trustAdvice(r.changed));
      const check = installed ? await checkListing(c.id, c.displayName, entryName(profile), opts) : undefined;
      return { ...r, outcome: check ? { ...outcome, check } : outcome };
    },
    'clients.trustFolder': async (p) => connector(p.client).trustFolder(requireString(p.folder, 'the folder to trust')),
    // No check against config.json: a profile deleted since connecting must still be removable.
    'clients.disconnect': async (p) => connector(p.client).disconnect(requireString(p.profile, 'the profile name')),
    'clients.undo': async (p) => connector(p.client).undo(),
    'clients.restoreBackup': async (p) => connector(p.client).restoreReadableBackup(),
    'clients.fileText': async (p) => connector(p.client).fileText(),
    'clients.importPlan': async (p) => {
      const c = connector(p.client);
      assertInstalled(c, 'There is nothing to import.');
      const raw = deps.raw();
      const plan = planFor(c, await c.readImportableServers(), raw);
      const profile = importProfile();
      const profiles = (raw.profiles ?? {}) as Record<string, { servers?: string[] }>;
      return {
        client: c.id,
        configPath: c.configPath(),
        replaceProfile: profile,
        profileServers: profiles[profile]?.servers ?? [],
        demoEntries: (await c.connectedProfiles()).filter(isDemoProfile),
        entries: plan.items.map((i): ImportPlanEntry =>
          i.action === 'add' ? { action: 'add', clientName: i.clientName, name: i.name, server: previewServer(i.config), ...(i.taken ? { taken: i.taken } : {}) }
          : i.action === 'duplicate' ? { action: 'duplicate', clientName: i.clientName, existing: i.existing }
          : i,
        ),
      };
    },
    'clients.importApply': async (p) => {
      const c = connector(p.client);
      assertInstalled(c, 'There is nothing to import.');
      const out = await applyImport(c, { replace: p.replace === true, ...(p.profile ? { profile: p.profile } : {}) }, { updateConfig: deps.updateConfig, shimEntry: shim });
      return { added: out.added, profile: out.profile, replaced: out.replaced };
    },
  };
}

/** What the user must do after a connect, and what went differently from a plain add. */
export function connectOutcome(
  c: Connector,
  profile: string,
  r: ClientWriteResult,
  installed: boolean,
  trust: { offer: boolean; trusted: string[] } | null = c.trustFile() ? { offer: true, trusted: [] } : null,
): ConnectOutcome {
  const warnings: string[] = [];
  if (r.replaced === 'other') {
    warnings.push(`The entry "${entryName(profile)}" had been changed by hand (or by ${c.displayName}); it was replaced. "Undo last change" puts the file back as it was.`);
  }
  if (!installed) warnings.push(`${c.displayName} was not found on this computer. The entry is in ${c.configPath()}; it takes effect once ${c.displayName} is installed and reads that file.`);
  if (r.via === 'claude-cli') warnings.push(`Written through Claude Code's own CLI (claude mcp add-json), since Claude Code rewrites ${c.configPath()} itself.`);
  const shared = c.sharedWith();
  if (shared) warnings.push(`${c.displayName} reads ${shared}'s file (${c.configPath()}): the one entry serves both.`);
  const nextSteps: string[] = [];
  // Once a folder is trusted, a connect that changed nothing does not offer it again (Connector.trustAdvice).
  const trustFile = trust?.offer ? c.trustFile() : null;
  // Trust comes first: without it the client's next session would not load the entry at all.
  if (trustFile) nextSteps.push(`Trust the folder you work in: ${c.displayName} ignores MCP servers in folders it does not trust. Switchboard can add it to ${trustFile} for you.`);
  if (r.changed) nextSteps.push(c.spec.nextStep);
  if (trust && !trust.offer) nextSteps.push(`${c.displayName} loads the entry in sessions started in ${trust.trusted.join(', ')} (its trusted folders).`);
  return { nextSteps, warnings, ...(trustFile ? { trustNeeded: { file: trustFile } } : {}) };
}

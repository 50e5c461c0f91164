// The control API: everything the CLI and the UI ask of the engine, defined once.
// Carried as JSON over the engine socket (`control` connections), under `/api/` on the HTTP
// server (POST /api/<method> with the params as the body), and over Electron IPC.
import type { ConfigProblem } from './config/validate.ts';
import type { ProfileConfig, ResolvedBudgets } from './config/schema.ts';
import type { AuditDrop, AuditEntry, AuditQuery, RunQuery, RunRecord } from './records.ts';
import type { ErrorData } from './errors.ts';
import type { LimitedClientId } from './client-limits.ts';
import type { AppSettingsInForce } from './config/app-settings.ts';
import type { MissingProgram } from './missing-program.ts';

export type ServerState = 'starting' | 'ready' | 'restarting' | 'failed' | 'disabled' | 'needs-approval';

export interface ServerAuth {
  state: 'none' | 'signed-in' | 'needs-sign-in';
  account?: string;
  /** needs-sign-in: the user signed in before (it expired or was revoked), so the app says "Sign in again". */
  again?: boolean;
  /** A sign-in started with servers.signIn: waiting for the browser, or why the last one failed. */
  signIn?: { state: 'waiting'; url: string } | { state: 'failed'; message: string };
}

export interface ServerStatus {
  state: ServerState;
  /** Number of tools the server offers (before profile filters). */
  tools: number;
  lastError: string | null;
  auth: ServerAuth;
  kind: 'local' | 'remote';
  /** Restarts since the engine started. */
  restarts: number;
  pid?: number;
  /** The MCP revision negotiated with the server (e.g. "2026-07-28", "2025-11-25"); null until connected (SPEC §9). */
  protocol?: string | null;
  /** Tools withheld because their description or schema changed since pinned (SPEC §3); approve to show them. */
  changedTools?: string[];
  /** state `needs-approval`: the server was proposed from outside; what approving it will run. */
  proposal?: ServerProposal;
  /** state `failed` because the program it runs is not on this computer (uvx, docker, …): what to install. */
  missingProgram?: MissingProgram;
}

/** What a server proposed from outside would run once approved: exactly, with env and header names (values may be secrets). */
export interface ServerProposal {
  /** Who proposed it (the entry's `proposedBy`). */
  by: string;
  command?: string;
  args?: string[];
  cwd?: string;
  url?: string;
  /** Names of the env variables (local) or headers (remote) it sets. */
  env?: string[];
  headers?: string[];
}

export interface ProfileStatus {
  surface: 'tools' | 'code';
  servers: string[];
  /** Tools this profile exposes after filters (tools surface), or the code tools (code surface). */
  tools: number;
  /** Code surface: whether declarations are inlined in `execute` (≤ 12,000 characters). */
  inlineDeclarations?: boolean;
  declarationChars?: number;
  budgets?: ResolvedBudgets;
  /** Streamable HTTP endpoint for this profile. */
  url: string | null;
  /** Where what the profile serves goes past a connected client's limits (too many tools, names too long); absent when none. */
  warnings?: string[];
}

/**
 * One client in `status`: an active session, or (`stateless`) a 2026-07-28 HTTP client seen
 * lately — that revision has no sessions, so it is named by its requests' `_meta.clientInfo`.
 */
export interface StatusClient {
  id: string;
  /** The client's raw clientInfo name, as it sent it (e.g. "gemini-cli-mcp-client"). */
  name: string;
  /** Its connector id (SPEC §7), when known: from its entry's `--client`, else from its clientInfo name. */
  clientId?: string;
  /** The client's name as people know it ("Gemini CLI"); the raw name when the client is not known. */
  displayName?: string;
  profile: string;
  transport: 'socket' | 'http';
  /** When the session opened; for a stateless client, its first request seen. */
  since: string;
  /**
   * The client id named by the connector that wrote the client's entry (`connect CLIENT` puts
   * `--client CLIENT` in it), when the session came through such a shim.
   */
  connector?: string;
  /**
   * For a client with known limits: which one, and the limits. `from` says how it was known:
   * its `clientInfo` name, or (when that names no known client) its connector.
   */
  limits?: { client: LimitedClientId; maxTools?: number; maxNameChars: number; from: 'clientInfo' | 'connector' };
  /** What this client gets: the profile's surface, or its `clients` entry's. */
  surface?: 'tools' | 'code';
  /** How many tools this client gets (its `clients` entry applied); absent until the client is known. */
  tools?: number;
  /** Set when the profile's `clients` entry for this client picks a subset of the tools. */
  subset?: boolean;
  /** The protocol generation it speaks: 2025 (`legacy`, initialize and a session) or 2026-07-28 (`modern`). */
  era?: 'legacy' | 'modern';
  /** Its latest request. */
  lastSeen?: string;
  /** A 2026-07-28 HTTP client, listed from its requests (no session); at most 20, seen within 15 minutes. */
  stateless?: boolean;
  /** Requests seen from a stateless client. */
  requests?: number;
  /** Where what this client gets goes past its limits, each with what to do; absent when none. */
  warnings?: string[];
  /** Tool names shortened for this client so they fit it (a sentence with examples); absent when none is. */
  shortened?: string;
}

export interface StatusReport {
  pid: number | null;
  version: string;
  home: string;
  http: { url: string; token: string } | null;
  servers: Record<string, ServerStatus>;
  profiles: Record<string, ProfileStatus>;
  config: { valid: boolean; problems: ConfigProblem[]; file: string };
  secrets: { store: 'keychain' | 'file' | 'none' };
  /** App-wide settings in force (config.json `settings`, defaults filled in). */
  settings: AppSettingsInForce;
  /** Active client sessions. */
  clients: StatusClient[];
  /** Tool calls from code waiting for approval (profile `approvals`), oldest first; absent when none. */
  approvals?: PendingApproval[];
  /** Record stores that failed to write (disk full, read-only home), each reported once; absent when none. */
  recordLosses?: { store: string; message: string; since: string; count: number }[];
}

export interface ToolInfo {
  /** Upstream name. */
  name: string;
  /** Name as exposed by the tools surface (server__tool). */
  exposedName: string;
  description?: string;
  allowed: boolean;
  /**
   * Asked with a profile and a client id: whether that client gets the tool (the profile's
   * `clients` entry for it applied). Absent otherwise.
   */
  forClient?: boolean;
  /** Withheld: its definition changed since it was pinned and waits for approval. */
  changed?: boolean;
}

export interface ExecResult {
  text: string;
  isError: boolean;
  runId: string;
}

/** A profile's entry in one client's config file (SPEC §7). */
export interface ClientProfileStatus {
  profile: string;
  /** The file has a `switchboard-<profile>` entry. */
  connected: boolean;
  /** The entry is exactly what connect would write now (false: connect again to refresh it). */
  matches: boolean;
  /** Since Switchboard wrote the entry, the client (or someone) changed or removed it. */
  drift: 'none' | 'changed' | 'removed';
  /** False when the profile is no longer in config.json (its entry can still be removed). */
  known: boolean;
}

export interface ClientInfo {
  id: string;
  displayName: string;
  /**
   * 'copy-paste': the client keeps its servers in its own settings screen (Jan, BoltAI, Witsy):
   * `clients.connect` writes nothing and answers with the steps (outcome.nextSteps); configPath is ''.
   * Absent for clients with a file.
   */
  kind?: 'copy-paste';
  installed: boolean;
  /** The file connect would change. */
  configPath: string;
  /** Where Switchboard looked to decide whether the client is installed. */
  lookedAt: string[];
  /** Profiles with an entry in the file. */
  connected: string[];
  /** Every profile of config.json, plus connected ones that are no longer there. */
  profiles: ClientProfileStatus[];
  /** Why the client's file could not be read (e.g. invalid JSON, with line and column), when it could not. */
  problem?: string;
  /** Switchboard wrote this file and keeps a backup to restore. */
  canUndo: boolean;
  /**
   * With `problem`: the newest copy Switchboard kept of the file that still reads (its time),
   * which `clients.restoreBackup` puts back. Absent when there is none.
   */
  backup?: { time: string };
  /** What the user must do in the client after connecting (restart, enable the entry…). */
  nextStep?: string;
  /**
   * Clients that ignore MCP servers in folders the user has not trusted (Gemini CLI, Qwen Code):
   * their trust list and the folders in it. `clients.trustFolder` adds one.
   */
  trust?: { file: string; folders: string[] };
}

/** What a connect left for the user to do, and what they should know (the Connect page's card shows it). */
export interface ConnectOutcome {
  /** In order: what to do in the client now (restart it, trust a folder, switch the entry on…). */
  nextSteps: string[];
  /** Things that went differently from a plain add: a hand-edited entry replaced, a client not found, … */
  warnings: string[];
  /** The client needs the folder the user works in to be trusted; the page offers to add it. */
  trustNeeded?: { file: string };
  /** A copy-paste client: nextSteps are what to click and paste in it; nothing was written. */
  copyPaste?: true;
  /** What the client's own listing command said of the entry, when it has one and is installed. */
  check?: ClientCheck;
}

/** A client's own listing (`claude mcp list`, …) run after a connect, read for the entry. */
export interface ClientCheck {
  /** The command as a person would type it. */
  command: string;
  /** connected: listed and started; listed: listed (the listing does not start servers); disabled: listed but switched off (Gemini CLI in a folder it does not trust); failed: listed, could not start; not-listed; unknown: the listing did not answer. */
  outcome: 'connected' | 'listed' | 'disabled' | 'failed' | 'not-listed' | 'unknown';
  /** The listing's line naming the entry, cleaned and cut to 200 characters. */
  line?: string;
  /** One sentence for the person. */
  message: string;
}

export interface ClientWriteResult {
  path: string;
  /** False when the file already said what was asked; nothing was written. */
  changed: boolean;
  /** Copy of the file as it was before the write; null when there was none or nothing was written. */
  backup: string | null;
  via: 'file' | 'claude-cli';
  /** What the added entry took the place of: nothing, Switchboard's own earlier entry, or one changed by hand. */
  replaced?: 'none' | 'ours' | 'other';
  /** clients.connect only: next steps and warnings for the user. */
  outcome?: ConnectOutcome;
}

/** One server of an import dry run, exactly as it would run (secret values left out). */
export interface ImportServerPreview {
  command?: string;
  args?: string[];
  cwd?: string;
  url?: string;
  transport?: 'http' | 'sse';
  /** Names only: values are copied as they are but not shown. */
  envKeys?: string[];
  /** Env variables that change what code the command loads (NODE_OPTIONS, LD_PRELOAD…), with their values: shown and flagged. */
  codeLoadingEnv?: { name: string; value: string }[];
  headerKeys?: string[];
  disabled?: boolean;
}

export type ImportPlanEntry =
  /** `taken`: the client's name is already used here by a different server, so it is brought over as `name`. */
  | { action: 'add'; clientName: string; name: string; server: ImportServerPreview; taken?: string }
  | { action: 'duplicate'; clientName: string; existing: string }
  | { action: 'skip'; clientName: string; reason: string };

export interface ImportPlanResult {
  client: string;
  configPath: string;
  entries: ImportPlanEntry[];
  /** The profile the servers join (the person's own, "my-tools"), created when missing; `replace` points the client at it. */
  replaceProfile: string;
  /** The servers already in that profile (brought over from other apps, or put there by hand). */
  profileServers: string[];
  /** Demo profiles the client is connected to: `replace` removes their entries too, so the app gets its own tools, not the demo's. */
  demoEntries: string[];
}

/** A tool call from code waiting for approval (profile `approvals`). */
export interface PendingApproval {
  id: string;
  time: string;
  profile: string;
  /** The calling client's raw clientInfo name. */
  client: string;
  /** Its connector id, when known. */
  clientId?: string;
  /** The calling client as people know it ("Cursor"): what the question and the card name. */
  displayName?: string;
  runId: string;
  server: string;
  tool: string;
  /** As written in code, e.g. `github.delete_repo`. */
  name: string;
  /** The tool's title (annotations.title, else title) and its description, cut; absent when it has none. */
  title?: string;
  description?: string;
  /** The exact arguments the code passed. */
  args: unknown;
  /** When the call is denied if nobody decides. */
  expiresAt: string;
  /** The calling client was asked too (elicitation); the first answer wins. */
  askedClient: boolean;
}

/** A saved run callable from code as `skills.NAME(input)` (SPEC §9). */
export interface SkillInfo {
  name: string;
  description: string;
  /** JSON Schema of the input. */
  input: Record<string, unknown>;
  code: string;
  /** The profile the run came from, and the run. */
  profile: string;
  fromRun: string;
  created: string;
  /** Tools the run called, as `server.tool`. */
  tools: string[];
  /** With a profile: whether every tool it needs is in that profile. */
  available?: boolean;
  /** Why not: the servers or tools missing from the profile. */
  missing?: string[];
}

/** Method name → params and result. */
export interface ControlApi {
  'status': { params: Record<string, never>; result: StatusReport };
  'config.get': { params: { path?: string }; result: { value: unknown; found: boolean } };
  /**
   * One read-modify-write of config.json under its lock. With `ifAbsent`, only when nothing is at
   * `path` yet (adding a server or profile by a name just checked): else a `conflict` error and
   * nothing written.
   */
  'config.set': { params: { path: string; value: unknown; ifAbsent?: boolean }; result: { ok: true } };
  'config.unset': { params: { path: string }; result: { ok: true; removed: boolean } };
  'config.text': { params: Record<string, never>; result: { text: string; file: string } };
  'servers.restart': { params: { name: string }; result: { ok: true } };
  'servers.log': { params: { name: string; lines?: number }; result: { lines: string[] } };
  /** With `profile` (and `client`, a connector id), says which tools that profile (and that client) gets. */
  'servers.tools': { params: { name: string; profile?: string; client?: string }; result: { tools: ToolInfo[] } };
  'servers.test': { params: { name?: string; config: unknown }; result: { ok: boolean; tools: string[]; error?: string } };
  /** Approves what waits for the user on a server: the server itself when it was proposed from outside (`server: true`), and its changed tools (`approved`). */
  'servers.approve': { params: { name: string }; result: { ok: true; approved?: string[]; server?: boolean } };
  /**
   * Starts signing in to a remote server (SPEC §8) and returns the authorization URL (https:, or
   * http: on loopback) for the caller to open; the engine waits for the redirect in the background,
   * stores the tokens and reconnects the server. Asked again while waiting, it returns the same URL.
   */
  'servers.signIn': { params: { name: string }; result: { url: string } };
  /** Forgets the server's tokens and registration (like `switchboard logout`) and reconnects it. */
  'servers.signOut': { params: { name: string }; result: { ok: true; removed: boolean } };
  'profiles.catalog': {
    /** With `draft`, the catalog of that unsaved profile config (named `profile` when given). */
    params: { profile?: string; draft?: ProfileConfig };
    result: { declarations: string; declarationChars: number; inline: boolean; limit: number };
  };
  /**
   * What a client with known limits (a connector id: cursor, windsurf, vscode) would get from the
   * profile now, and where that goes past its limits; `limits` is null for other clients.
   */
  'profiles.clientLimits': {
    params: { profile: string; client: string };
    result: {
      limits: { client: LimitedClientId; maxTools?: number; maxNameChars: number } | null;
      tools: number;
      warnings: string[];
      /** Tool names shortened for this client (they would not fit it with its prefix), as a sentence; absent when none is. */
      shortened?: string;
    };
  };
  'runs.list': { params: RunQuery; result: { runs: RunRecord[] } };
  'runs.get': { params: { id: string }; result: { run: RunRecord } };
  /** `dropped`: what the size cap removed so far, per client, newest first (absent when nothing was). */
  'audit.list': { params: AuditQuery; result: { entries: AuditEntry[]; dropped?: AuditDrop[] } };
  'exec': { params: { profile: string; code: string; client?: string }; result: ExecResult };
  'approvals.list': { params: Record<string, never>; result: { pending: PendingApproval[] } };
  /** Approves or denies a pending call; the first decision (client or app) wins. */
  'approvals.decide': { params: { id: string; approve: boolean }; result: { ok: true } };
  /** With `profile`, each skill says whether that profile can run it. */
  'skills.list': { params: { profile?: string }; result: { skills: SkillInfo[] } };
  /** Saves a run's code as a skill; `input` is the JSON Schema of its input (default: an empty object). */
  'skills.save': {
    params: { runId: string; name: string; input?: Record<string, unknown>; description?: string; replace?: boolean };
    result: { skill: SkillInfo };
  };
  'skills.remove': { params: { name: string }; result: { ok: true; removed: boolean } };
  'engine.stop': { params: Record<string, never>; result: { ok: true } };
  'clients.list': { params: Record<string, never>; result: { clients: ClientInfo[] } };
  /** `force` writes even when the client does not look installed. */
  'clients.connect': { params: { client: string; profile: string; force?: boolean }; result: ClientWriteResult };
  'clients.disconnect': { params: { client: string; profile: string }; result: ClientWriteResult };
  'clients.undo': { params: { client: string }; result: { path: string; restoredFrom: string | null } };
  /** Puts back the newest readable copy of a client's file (ClientInfo.backup), keeping the current file as a backup first. */
  'clients.restoreBackup': { params: { client: string }; result: { path: string; restoredFrom: string; savedAs: string | null } };
  /** The client's file as text (cut at 200,000 characters), to show a person. */
  'clients.fileText': { params: { client: string }; result: { path: string; exists: boolean; text: string; cut: boolean } };
  /** Adds an absolute folder to the client's trust list (ClientInfo.trust), byte-preserving; kept apart from undo. */
  'clients.trustFolder': { params: { client: string; folder: string }; result: ClientWriteResult };
  /** Dry run of import: writes nothing. */
  'clients.importPlan': { params: { client: string }; result: ImportPlanResult };
  /**
   * Adds the planned servers to config.json and puts them (and those already there) in one profile,
   * `profile` or the person's own ("my-tools"), in one atomic change; `replace` also swaps them in
   * the client's file for that profile's one entry. `profile` is null when there was nothing to bring over.
   */
  'clients.importApply': {
    params: { client: string; replace?: boolean; profile?: string };
    result: { added: string[]; profile: string | null; replaced: { profile: string; entries: string[]; write: ClientWriteResult } | null };
  };
  /**
   * Removes the demo: its profiles ("demo", "demo-code"), the servers only they use, the apps'
   * entries for them, and its folder when left as it came. A server of the person's in a demo
   * profile moves to their own profile ("my-tools"), and an app that reached it through the demo is pointed there.
   */
  'demo.remove': { params: Record<string, never>; result: DemoRemovalResult };
  /**
   * The servers shipped with the app whose words match `text` (all of them for empty text), then
   * those in the MCP Registry (settings.registry) whose name contains `text`, latest versions.
   * `offline`: the registry could not be reached (the sentence why); the shipped ones are still listed.
   */
  'catalog.search': { params: { text: string }; result: { registry: string; servers: CatalogHit[]; offline?: string } };
  /** The approval screen of one registry server: exactly what would run, and what to ask for. Writes nothing. */
  'catalog.prepare': {
    /** A registry name, or `link`: an install link (switchboard://, Cursor's, VS Code's) as received. */
    params: { name?: string; version?: string; link?: string };
    result: CatalogPrepared;
  };
  /**
   * Adds the server; refused unless `approved` is true. `answers` are by input id; secret ones go
   * to the secret store. The engine fetches the entry again rather than trusting the page.
   */
  'catalog.install': {
    params: { name?: string; version?: string; link?: string; answers: Record<string, string>; approved: boolean };
    /** `signIn`: the remote server answered the install check with 401: the user must sign in (servers.signIn). */
    result: { serverName: string; config: Record<string, unknown>; secrets: string[]; signIn?: 'needed' };
  };
}

export interface DemoRemovalResult {
  /** The demo profiles removed (none when there was no demo). */
  profiles: string[];
  /** The demo servers removed. */
  servers: string[];
  /** The person's servers that were in a demo profile, now in `profile`. */
  kept: { servers: string[]; profile: string } | null;
  /** Apps whose demo entry was removed; `movedTo`: it now reaches that profile instead. */
  apps: { client: string; displayName: string; movedTo?: string }[];
  /** The demo folder: removed, kept (it holds files the person put or changed there), or not there. */
  folder: { path: string; state: 'removed' | 'kept' | 'absent' };
}

export interface CatalogHit {
  name: string;
  version: string;
  title?: string;
  description: string;
  status: 'active' | 'deprecated' | 'deleted';
  /** npm, pypi, oci, nuget, mcpb, remote… */
  kinds: string[];
  installed?: { serverName: string; version: string; update: boolean };
  /** Ships with the app: listed and added without the registry. */
  shipped?: true;
}

/** A value the user is asked for before installing. */
export interface CatalogInput {
  id: number;
  label: string;
  description?: string;
  isSecret: boolean;
  isRequired: boolean;
  default?: string;
  choices?: string[];
}

export interface CatalogPrepared {
  registry: string;
  name: string;
  version: string;
  status: 'active' | 'deprecated' | 'deleted';
  description: string;
  /** The key under "servers" it will get. */
  serverName: string;
  /** "npm package … 1.2.0", "remote https://…". */
  source: string;
  /** The installed version this would replace, when it was installed from the registry before. */
  updateFrom: string | null;
  /** Set when the entry came from an install link rather than the registry ('' registry and version then). */
  link?: { from: 'switchboard' | 'cursor' | 'vscode' };
  inputs: CatalogInput[];
  /** Local servers: the command line, `<label>` where an asked value goes. */
  command?: string;
  args?: string[];
  /** `codeLoading`: the variable changes what code the command loads (NODE_OPTIONS, LD_PRELOAD…): shown flagged. */
  env?: Record<string, { value: string; secret: boolean; codeLoading?: true }>;
  /** What runs the command, and whether it was found (with the doctor's advice). */
  runner?: { program: string; found: string | null; advice: string[] };
  url?: string;
  transport?: 'http' | 'sse';
  headers?: Record<string, { value: string; secret: boolean }>;
  /** One of the servers shipped with the app (its inputs carry plain labels). */
  shipped?: true;
  /** Set when it needs the internet: to download it on its first start, or because it runs there. */
  network?: string;
}

export type ControlMethod = keyof ControlApi;
export type ControlParams<M extends ControlMethod> = ControlApi[M]['params'];
export type ControlResult<M extends ControlMethod> = ControlApi[M]['result'];

export const CONTROL_METHODS = [
  'status',
  'config.get',
  'config.set',
  'config.unset',
  'config.text',
  'servers.restart',
  'servers.log',
  'servers.tools',
  'servers.test',
  'servers.approve',
  'servers.signIn',
  'servers.signOut',
  'profiles.catalog',
  'profiles.clientLimits',
  'runs.list',
  'runs.get',
  'audit.list',
  'exec',
  'approvals.list',
  'approvals.decide',
  'skills.list',
  'skills.save',
  'skills.remove',
  'engine.stop',
  'clients.list',
  'clients.connect',
  'clients.disconnect',
  'clients.undo',
  'clients.restoreBackup',
  'clients.fileText',
  'clients.trustFolder',
  'clients.importPlan',
  'clients.importApply',
  'demo.remove',
  'catalog.search',
  'catalog.prepare',
  'catalog.install',
] as const satisfies readonly ControlMethod[];

/** `never` when CONTROL_METHODS names every method of ControlApi; the method names otherwise. */
export type UnlistedControlMethods = Exclude<ControlMethod, (typeof CONTROL_METHODS)[number]>;

/** One request/response on a control connection (newline-delimited JSON). */
export interface ControlRequest {
  id: number;
  method: ControlMethod;
  params: unknown;
}
export type ControlResponse = { id: number; result: unknown } | { id: number; error: ErrorData };

/**
 * The digests of the lists a shim answered its client from the last engine's boot answer before
 * handing the session to this engine (`resume.boot`), by list: tools, prompts, resources,
 * resourceTemplates.
 */
export type BootList = 'tools' | 'prompts' | 'resources' | 'resourceTemplates';
export type BootDigests = Partial<Record<BootList, string>>;

/** First line a client writes on the engine socket, choosing what the connection is. */
export type SocketHello =
  /** `resume`: a shim reconnecting after an engine restart replays its client's initialize params (`boot`: see BootDigests). */
  /** `client`: the connector id of the entry that started the shim (`--client`), when it names one. */
  /** `moved`: the engine before this one handed the home over; `boot` then holds the digests of the lists the client holds. */
  | { kind: 'mcp'; profile: string; v: 1; resume?: { initialize: unknown; boot?: BootDigests; moved?: boolean }; client?: string }
  | { kind: 'control'; v: 1 }
  /** A new engine asking this one to hand the home over (engine --take-over; docs/updates.md). */
  | TakeOverHello;

/**
 * The take-over conversation on the engine socket (src-main/engine/handover/). The new engine
 * opens it with this hello: its version, and where it already listens — a socket beside the
 * home's (renamed onto it when the old engine accepts) and a loopback port the old engine
 * forwards new HTTP connections to while it drains.
 */
export interface TakeOverHello {
  kind: 'takeover';
  v: 1;
  version: string;
  pid: number;
  socket: string;
  httpPort: number | null;
}

/**
 * What the old engine says back, one JSON line each: accepted (or refused, with the reason), then
 * `http-released` once its HTTP listener is closed (the new engine binds the port at once), then
 * `left` once its servers are stopped and its lock released.
 */
export type TakeOverEvent =
  | { event: 'accepted'; version: string; pid: number }
  | { event: 'refused'; error: { code: string; message: string } }
  | { event: 'http-released' }
  | { event: 'left' };

/**
 * The notification the engine writes on a shim's connection when it hands the home over: the
 * shim sends its client's new requests to the socket's new owner (resuming the session there)
 * and leaves this connection to answer the requests in flight. A shim never relays it.
 */
export const ENGINE_MOVING_METHOD = 'notifications/switchboard/engineMoving';

/** A transport-agnostic client of the API (socket, HTTP, IPC). The renderer and CLI use this. */
export interface ControlClient {
  call<M extends ControlMethod>(method: M, params: ControlParams<M>): Promise<ControlResult<M>>;
}

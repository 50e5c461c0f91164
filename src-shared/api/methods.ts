// The control methods: each one's params and result, the list of their names, and the
// request/response that carries them.
import type { ProfileConfig } from '../config/schema.ts';
import type { AuditDrop, AuditEntry, AuditQuery, RunQuery, RunRecord } from '../records.ts';
import type { ErrorData } from '../errors.ts';
import type { LimitedClientId } from '../client-limits.ts';
import type { StatusReport, ToolInfo } from './status.ts';
import type { ExecResult, PendingApproval, SkillInfo } from './code-runs.ts';
import type { ClientInfo, ClientWriteResult, DemoRemovalResult, ImportPlanResult } from './clients.ts';
import type { CatalogHit, CatalogPrepared } from './catalog.ts';

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
   * Starts signing in to a remote server (docs/configuration.md) and returns the authorization URL (https:, or
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

/** A transport-agnostic client of the API (socket, HTTP, IPC). The renderer and CLI use this. */
export interface ControlClient {
  call<M extends ControlMethod>(method: M, params: ControlParams<M>): Promise<ControlResult<M>>;
}

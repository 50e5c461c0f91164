// The control API: everything the CLI and the UI ask of the engine, defined once.
// Carried as JSON over the engine socket (`control` connections), under `/api/` on the HTTP
// server (POST /api/<method> with the params as the body), and over Electron IPC.
import type { ConfigProblem } from './config/validate.ts';
import type { ResolvedBudgets } from './config/schema.ts';
import type { AuditEntry, AuditQuery, RunQuery, RunRecord } from './records.ts';
import type { ErrorData } from './errors.ts';

export type ServerState = 'starting' | 'ready' | 'restarting' | 'failed' | 'disabled' | 'needs-approval';

export interface ServerAuth {
  state: 'none' | 'signed-in' | 'needs-sign-in';
  account?: string;
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
  /** Active client sessions. */
  clients: { id: string; name: string; profile: string; transport: 'socket' | 'http'; since: string }[];
}

export interface ToolInfo {
  /** Upstream name. */
  name: string;
  /** Name as exposed by the tools surface (server__tool). */
  exposedName: string;
  description?: string;
  allowed: boolean;
}

export interface ExecResult {
  text: string;
  isError: boolean;
  runId: string;
}

/** Method name → params and result. */
export interface ControlApi {
  'status': { params: Record<string, never>; result: StatusReport };
  'config.get': { params: { path?: string }; result: { value: unknown; found: boolean } };
  'config.set': { params: { path: string; value: unknown }; result: { ok: true } };
  'config.unset': { params: { path: string }; result: { ok: true; removed: boolean } };
  'config.text': { params: Record<string, never>; result: { text: string; file: string } };
  'servers.restart': { params: { name: string }; result: { ok: true } };
  'servers.log': { params: { name: string; lines?: number }; result: { lines: string[] } };
  'servers.tools': { params: { name: string; profile?: string }; result: { tools: ToolInfo[] } };
  'servers.test': { params: { name?: string; config: unknown }; result: { ok: boolean; tools: string[]; error?: string } };
  'servers.approve': { params: { name: string }; result: { ok: true } };
  'profiles.catalog': {
    params: { profile: string };
    result: { declarations: string; declarationChars: number; inline: boolean; limit: number };
  };
  'runs.list': { params: RunQuery; result: { runs: RunRecord[] } };
  'runs.get': { params: { id: string }; result: { run: RunRecord } };
  'audit.list': { params: AuditQuery; result: { entries: AuditEntry[] } };
  'exec': { params: { profile: string; code: string; client?: string }; result: ExecResult };
  'engine.stop': { params: Record<string, never>; result: { ok: true } };
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
  'profiles.catalog',
  'runs.list',
  'runs.get',
  'audit.list',
  'exec',
  'engine.stop',
] as const satisfies readonly ControlMethod[];

/** One request/response on a control connection (newline-delimited JSON). */
export interface ControlRequest {
  id: number;
  method: ControlMethod;
  params: unknown;
}
export type ControlResponse = { id: number; result: unknown } | { id: number; error: ErrorData };

/** First line a client writes on the engine socket, choosing what the connection is. */
export type SocketHello = { kind: 'mcp'; profile: string; v: 1 } | { kind: 'control'; v: 1 };

/** A transport-agnostic client of the API (socket, HTTP, IPC). The renderer and CLI use this. */
export interface ControlClient {
  call<M extends ControlMethod>(method: M, params: ControlParams<M>): Promise<ControlResult<M>>;
}

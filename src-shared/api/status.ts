// What `status` reports: the engine, its servers, profiles and connected clients, and what a
// server's tools are.
import type { ConfigProblem } from '../config/validate.ts';
import type { ResolvedBudgets } from '../config/schema.ts';
import type { LimitedClientId } from '../client-limits.ts';
import type { AppSettingsInForce } from '../config/app-settings.ts';
import type { MissingProgram } from '../missing-program.ts';
import type { PendingApproval } from './code-runs.ts';

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
  /** The MCP revision negotiated with the server (e.g. "2026-07-28", "2025-11-25"); null until connected (docs/protocol.md). */
  protocol?: string | null;
  /** Tools withheld because their description or schema changed since pinned (docs/configuration.md); approve to show them. */
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
  /** Its connector id (docs/clients.md), when known: from its entry's `--client`, else from its clientInfo name. */
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

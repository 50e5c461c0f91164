// What an Upstream (server-connection.ts) is given: its options, the handlers for what the
// server asks or announces, and the options of one call.
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import type { SecretStore } from '../secrets/secret-store.ts';
import type { GroupLedger } from './group-ledger.ts';

export interface ServerRequestExtra {
  /** Aborted when the server cancels its request or the connection ends. */
  signal: AbortSignal;
  /**
   * The call the request belongs to, when the connection says so: a 2026-07-28 call's own
   * `input_required`, or a request on a call's Streamable HTTP response stream. Its `context`.
   */
  call?: { context: unknown };
  /**
   * Without `call`: the `context` of every call in flight to this server, oldest first (none: the
   * request was made outside any call). They only bound whose it can be; the gateway decides.
   */
  calls: unknown[];
}

/** Answers a server→client request (sampling/createMessage, elicitation/create, roots/list). */
export type ServerRequestHandler = (
  server: string,
  request: { method: string; params?: Record<string, unknown> },
  extra: ServerRequestExtra,
) => Promise<Record<string, unknown>>;

/** Server notifications other than progress and list_changed (logging, resources/updated, …). */
export type NotificationHandler = (server: string, notification: { method: string; params?: Record<string, unknown> }) => void;

export interface UpstreamOptions {
  /** Folder for `<name>.log` (stderr and lifecycle notes). */
  logsDir: string;
  resolveSecret?: (name: string) => string | undefined;
  /** Where remote servers keep their sign-in (OAuth tokens); without it they connect without OAuth. */
  secrets?: SecretStore;
  clientInfo?: { name: string; version: string };
  onServerRequest?: ServerRequestHandler;
  onNotification?: NotificationHandler;
  onCatalog?: (name: string) => void;
  onState?: (name: string) => void;
  /** Environment the allow-list picks from. Defaults to process.env. */
  parentEnv?: NodeJS.ProcessEnv;
  /** Where the app's own node/npx/npm launchers are written (carried-runtime.ts); defaults to a private temp folder. */
  launchersDir?: string;
  /** First restart delay in ms (doubling per failure). Defaults to 500. */
  backoffInitialMs?: number;
  /** Longest restart delay in ms. Defaults to 30000. */
  backoffMaxMs?: number;
  /** Failed starts in a row before the server is marked failed. Defaults to 5. */
  maxFailedStarts?: number;
  /** Time allowed from spawn to an answered initialize, in ms. Defaults to 60000 (npx may download first). */
  startTimeoutMs?: number;
  /** SIGTERM → SIGKILL grace when stopping, in ms. Defaults to 2000. */
  killGraceMs?: number;
  /** Where stdio servers' process groups are written down while they run (group-ledger.ts); none in tests that run no engine. */
  groups?: GroupLedger;
  /** Largest message accepted from a stdio server, in bytes. Defaults to 64 MB. */
  maxMessageBytes?: number;
  /** stderr log size before rotation, in bytes. Defaults to 1 MB. */
  maxLogBytes?: number;
  /** Secret values to keep out of the server's log, tail and lastError. Defaults to none (token shapes are still redacted). */
  secretValues?: () => readonly string[];
}

export interface CallOptions {
  signal?: AbortSignal;
  onProgress?: (progress: Progress) => void;
  /** Opaque to us; handed back in ServerRequestExtra (call or calls) so requests can be routed to the caller. */
  context?: unknown;
  /** Log level a 2026-07-28 server is asked to log at during this call (its `_meta`); 2025 servers log as they do. */
  logLevel?: string;
}

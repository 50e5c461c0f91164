// The gateway's view of the upstream servers: the supervisor's connections with trust applied.
// Every surface reads tools and calls them through here, so a tool withheld by its pin
// (docs/configuration.md) is absent from lists and code mode, and refused when called by name.
import { SwitchboardError } from '../../../src-shared/errors.ts';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ServerStatus } from '../../../src-shared/api.ts';
import { isSettling, type Supervisor } from '../upstream/supervisor.ts';
import type { PinStore } from '../trust/pins.ts';
import { proposalOf } from '../trust/proposals.ts';
import { serverUnavailableSentence } from '../trust/why-unavailable.ts';
import type { CallToolResult, Progress } from '@modelcontextprotocol/sdk/types.js';
import type { DirectCalls } from '../upstream/direct-calls.ts';
import type { CatalogSource } from './profile-view.ts';

/** What the gateway needs of the upstream supervisor. */
export interface UpstreamAccess extends CatalogSource {
  callTool(
    server: string,
    params: { name: string; arguments?: Record<string, unknown>; _meta?: Record<string, unknown> },
    opts: { signal?: AbortSignal; onProgress?: (p: Progress) => void; context?: unknown; logLevel?: string },
  ): Promise<CallToolResult>;
  request(server: string, method: string, params: unknown, opts: { signal?: AbortSignal }): Promise<unknown>;
  /** A sentence saying why a server cannot take calls, or undefined when it is ready. */
  unavailable(server: string): string | undefined;
  /** Why a tool may not be called although the profile allows it (its pin: a changed definition), or undefined. */
  withheld?(server: string, tool: string): string | undefined;
  /** The tools/call fast path's lane to a server (direct-calls.ts), when it has one now. */
  direct?(server: string): DirectCalls | undefined;
  /**
   * Waits (at most timeoutMs, or until signal) until none of `servers` is still starting;
   * resolves with those still starting then. Never rejects.
   */
  settle(servers: readonly string[], timeoutMs: number, signal?: AbortSignal): Promise<string[]>;
  /**
   * Whether a server still starting shows the tools it last showed (its boot catalog, kept with
   * its pins): a tools/list need not wait for it.
   */
  bootCatalog?(server: string): boolean;
  /** A server's status (with its changed tools withheld until approved), or undefined when it is not configured. */
  status(server: string): ServerStatus | undefined;
  /** Restarts a server (it forgets the roots a client gave it). */
  restart(server: string): void;
  /** Sends `notifications/roots/list_changed` to a server. */
  rootsChanged(server: string): void;
  /** The `extensions` a ready server announced in its capabilities (e.g. MCP Apps), relayed to clients. */
  extensions?(server: string): Record<string, object> | undefined;
  /** Whether a ready server runs this tool as a task (2025-11-25 tasks), see Upstream.taskSupport. */
  taskSupport?(server: string, tool: string): 'optional' | 'required' | undefined;
}

export interface UpstreamAccessDeps {
  supervisor: Supervisor;
  pins: PinStore;
  learned: UpstreamAccess['learned'];
  skills: UpstreamAccess['skills'];
  log(line: string): void;
}

/** A server's status with what waits for the user's approval: the server itself, or tools whose definitions changed. */
export function serverStatus(d: Pick<UpstreamAccessDeps, 'supervisor' | 'pins'>, name: string): ServerStatus | undefined {
  const u = d.supervisor.get(name);
  if (!u) return undefined;
  const st = u.status();
  const proposal = st.state === 'needs-approval' ? proposalOf(u.config) : undefined;
  if (proposal) st.proposal = proposal;
  const changed = d.pins.changedTools(name);
  if (changed.length) st.changedTools = changed;
  return st;
}

export function upstreamAccess(d: UpstreamAccessDeps): UpstreamAccess {
  const { supervisor, pins } = d;
  const ready = (server: string) => {
    const u = supervisor.get(server);
    return u && u.state === 'ready' ? u : undefined;
  };
  const connection = (server: string) => {
    const u = supervisor.get(server);
    if (!u) throw new SwitchboardError('unknown-server', `There is no server "${server}".`);
    return u;
  };
  return {
    tools: (s) => {
      const u = supervisor.get(s);
      if (!u) return undefined;
      // A server still starting shows the tools it last showed (boot catalogs): its calls wait for it.
      if (u.state !== 'ready') return isSettling(u) ? pins.approvedCatalog(s) : undefined;
      return pins.visible(s, u.tools());
    },
    bootCatalog: (s) => {
      const u = supervisor.get(s);
      return u !== undefined && isSettling(u) && pins.approvedCatalog(s) !== undefined;
    },
    learned: d.learned,
    resources: (s) => ready(s)?.resources(),
    resourceTemplates: (s) => ready(s)?.resourceTemplates(),
    prompts: (s) => ready(s)?.prompts(),
    skills: d.skills,
    callTool: (s, params, opts) => connection(s).callTool(params, opts),
    // The pin check of the one call pipeline (call-pipeline.ts), for every surface and path.
    withheld: (s, tool) => pins.checkCall(s, tool),
    direct: (s) => supervisor.get(s)?.direct(),
    request: (s, method, params, opts) => connection(s).request(method, params, opts),
    settle: (servers, timeoutMs, signal) => supervisor.settle(servers, timeoutMs, signal),
    status: (s) => serverStatus(d, s),
    restart: (s) => {
      const u = supervisor.get(s);
      if (!u) return;
      d.log(`restarting ${s}: it holds roots of a client that no longer uses it alone`);
      void u.restart();
    },
    rootsChanged: (s) => supervisor.get(s)?.rootsChanged(),
    extensions: (s) => ready(s)?.serverCapabilities()?.extensions as Record<string, object> | undefined,
    taskSupport: (s, tool) => ready(s)?.taskSupport(tool),
    unavailable: (s) => serverUnavailableSentence(s, supervisor.get(s)?.status()),
  };
}

/**
 * Pins each catalog as it arrives (docs/configuration.md), before the gateway tells clients it changed.
 * `toolsChanged` says whether the server's tools as shown differ from what clients were shown
 * before: a server that starts with the tools its boot catalog showed changes no tool list.
 */
export function recordCatalogs(supervisor: Supervisor, pins: PinStore, tools: (server: string) => Tool[] | undefined, changed: (server: string, toolsChanged: boolean) => void): void {
  /** What each server's tools looked like when clients were last told, as JSON text. */
  const shown = new Map<string, string>();
  // Before the first catalog of this engine: the boot catalog (what a starting server shows).
  const before = (name: string) => shown.get(name) ?? JSON.stringify(pins.approvedCatalog(name) ?? null);
  supervisor.on('catalog', (name) => {
    const was = before(name);
    const u = supervisor.get(name);
    if (u?.state === 'ready') pins.record(name, u.tools());
    const now = JSON.stringify(tools(name) ?? null);
    shown.set(name, now);
    changed(name, now !== was);
  });
  // A server that stops starting without becoming ready (a failed first try, now retrying)
  // no longer shows its boot catalog; becoming ready is told by the catalog that follows.
  supervisor.on('state', (name) => {
    if (supervisor.get(name)?.state === 'ready') return;
    const was = before(name);
    const now = JSON.stringify(tools(name) ?? null);
    if (now === was) return;
    shown.set(name, now);
    changed(name, true);
  });
}

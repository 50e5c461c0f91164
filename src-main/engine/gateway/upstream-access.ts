// The gateway's view of the upstream servers: the supervisor's connections with trust applied.
// Every surface reads tools and calls them through here, so a tool withheld by its pin (SPEC §3)
// is absent from lists and code mode, and refused when called by name.
import { SwitchboardError } from '../../../src-shared/errors.ts';
import type { ServerStatus } from '../../../src-shared/api.ts';
import type { Supervisor } from '../upstream/supervisor.ts';
import type { PinStore } from '../trust/pins.ts';
import { proposalOf } from '../trust/proposals.ts';
import { serverUnavailableSentence } from '../trust/why-unavailable.ts';
import type { UpstreamAccess } from './gateway.ts';

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
      const tools = ready(s)?.tools();
      return tools && pins.visible(s, tools);
    },
    learned: d.learned,
    resources: (s) => ready(s)?.resources(),
    resourceTemplates: (s) => ready(s)?.resourceTemplates(),
    prompts: (s) => ready(s)?.prompts(),
    skills: d.skills,
    callTool: (s, params, opts) => connection(s).callTool(params, opts),
    // The pin check of the one call pipeline (gateway.ts), for every surface and path.
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

/** Pins each catalog as it arrives (SPEC §3), before the gateway tells clients it changed. */
export function recordCatalogs(supervisor: Supervisor, pins: PinStore, changed: (server: string) => void): void {
  supervisor.on('catalog', (name) => {
    const u = supervisor.get(name);
    if (u?.state === 'ready') pins.record(name, u.tools());
    changed(name);
  });
}

// Who hears what changed: the profiles' connected sessions, and listeners that are not sessions
// (the 2026-07-28 HTTP endpoint keeps none and tells its clients' listen streams from `events`).
import { EventEmitter } from 'node:events';
import type { ServerNotification } from '@modelcontextprotocol/sdk/types.js';
import type { CallLogRelay } from '../upstream/call-logs.ts';
import type { ProfileView } from './profile-view.ts';
import type { ListKind, SessionBase } from './session-base.ts';
import type { Rev20251125Task, TaskBridge, TaskOwner } from './task-bridge.ts';

export interface GatewayEvents {
  listChanged: [profile: string, kind: ListKind];
  resourceUpdated: [server: string, uri: string];
}

export interface FanoutDeps {
  sessions: ReadonlySet<SessionBase>;
  views(): Iterable<ProfileView>;
  tasks(): TaskBridge;
  callLogs: CallLogRelay;
}

export class NotificationFanout {
  readonly events = new EventEmitter<GatewayEvents>();
  readonly #deps: FanoutDeps;

  constructor(deps: FanoutDeps) {
    this.#deps = deps;
  }

  /** The profiles' configs changed: their listeners re-read the tools. */
  profilesChanged(profiles: Iterable<string>): void {
    for (const profile of profiles) this.events.emit('listChanged', profile, 'tools');
  }

  /**
   * A server's catalog changed: refresh the profiles over it and tell their clients.
   * `toolsChanged` false: its tools are as clients were shown them (a server that started with
   * the tools of its boot catalog), so no tools list_changed.
   */
  catalogChanged(server: string, toolsChanged: boolean): void {
    const kinds = toolsChanged ? (['tools', 'resources', 'prompts'] as const) : (['resources', 'prompts'] as const);
    for (const view of this.#deps.views()) {
      if (!view.includes(server)) continue;
      view.invalidate();
      for (const kind of kinds) this.events.emit('listChanged', view.name, kind);
    }
    for (const s of this.#deps.sessions) {
      if (!s.view?.includes(server)) continue;
      for (const kind of kinds) s.notifyListChanged(kind);
    }
  }

  /** The saved skills changed: refresh the profiles that offer them and tell their clients. */
  skillsChanged(): void {
    for (const view of this.#deps.views()) if (view.codeMode.skills) view.invalidate();
    for (const s of this.#deps.sessions) if (s.view?.codeMode.skills) s.notifyListChanged('tools');
  }

  /** A task's new state, for its owner: 2025 clients hear it; 2026-07-28 ones poll (or would listen, not relayed yet). */
  taskStatus(owner: TaskOwner, task: Rev20251125Task): void {
    for (const s of this.#deps.sessions) {
      if (s.era === 'legacy' && s.id === owner.session) s.forwardNotification('', { method: 'notifications/tasks/status', params: task } as ServerNotification);
    }
  }

  /** Relays a notification of an upstream (logging, resources/updated) to its profiles' clients. */
  serverNotification(server: string, notification: ServerNotification): void {
    // A task's status names the server's task id: only the task's owner hears it, under the gateway's.
    if (notification.method === 'notifications/tasks/status') return this.#deps.tasks().fromServer(server, notification.params);
    for (const s of this.#deps.sessions) if (s.view?.includes(server)) s.forwardNotification(server, notification);
    if (notification.method === 'notifications/message') this.#deps.callLogs.deliver(server, notification.params);
    if (notification.method === 'notifications/resources/updated') this.events.emit('resourceUpdated', server, String(notification.params.uri));
  }
}

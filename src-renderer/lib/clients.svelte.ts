// The Connect page's view of MCP clients: each one's file, install state and entries per
// profile, read fresh from the engine after every change (the client may rewrite its file too).
import type { ClientInfo, ClientProfileStatus, ControlClient } from '../../src-shared/api.ts';
import { describeError } from './api-client.ts';
import type { CardOutcome } from './card-outcome.ts';

export class ClientList {
  clients = $state.raw<ClientInfo[] | null>(null);
  error = $state<string | null>(null);
  /** Each card's last outcome, by client id (cards are rebuilt when they change lists). */
  notices = $state<Record<string, CardOutcome | null>>({});
  #client: ControlClient;

  constructor(client: ControlClient) {
    this.#client = client;
  }

  async refresh(): Promise<void> {
    try {
      this.clients = (await this.#client.call('clients.list', {})).clients;
      this.error = null;
    } catch (err) {
      this.error = describeError(err);
    }
  }
}

export type EntryState = 'connected' | 'outdated' | 'changed' | 'removed' | 'none';

/** One word for a profile's entry, drift first: that is what the user has to act on. */
export function entryState(p: ClientProfileStatus): EntryState {
  if (p.drift === 'changed') return 'changed';
  if (p.drift === 'removed') return 'removed';
  if (!p.connected) return 'none';
  return p.matches ? 'connected' : 'outdated';
}

export const ENTRY_LABELS: Record<EntryState, string> = {
  connected: 'connected',
  outdated: 'connected, entry out of date',
  changed: 'changed by the client',
  removed: 'removed by the client',
  none: 'not connected',
};

// Which servers of a profile are not fully serving it, and why: what hints and messages name
// instead of pretending such a server does not exist.
import type { ServerState } from '../../../src-shared/api.ts';
import type { ProfileView } from './profile-view.ts';
import type { UpstreamAccess } from './upstream-access.ts';

export interface ServerReadiness {
  server: string;
  /** `missing`: named by the profile but not in `servers`; `needs-sign-in`: its sign-in expired or was revoked. */
  state: ServerState | 'missing' | 'needs-sign-in';
  lastError?: string;
  /** Tools of this profile withheld because their definitions changed (until `switchboard approve`). */
  withheld?: string[];
}

/** The profile's servers that are not fully serving it (starting, failed, withheld tools, …), in config order. */
export function profileReadiness(upstream: Pick<UpstreamAccess, 'status'>, view: ProfileView): ServerReadiness[] {
  const out: ServerReadiness[] = [];
  for (const server of view.servers) {
    const st = upstream.status(server);
    if (!st) {
      out.push({ server, state: 'missing' });
      continue;
    }
    const lastError = st.lastError ?? undefined;
    const withheld = (st.changedTools ?? []).filter((t) => view.allows(server, t));
    const entry: ServerReadiness =
      st.auth.state === 'needs-sign-in' ? { server, state: 'needs-sign-in' } : { server, state: st.state };
    if (entry.state !== 'ready' && lastError) entry.lastError = lastError;
    if (withheld.length) entry.withheld = withheld;
    if (entry.state !== 'ready' || withheld.length) out.push(entry);
  }
  return out;
}

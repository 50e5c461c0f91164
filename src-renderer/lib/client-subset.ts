// The value of profiles.P.clients.ID.tools for the tools a user picked for one client: per
// server of the profile, exactly the picked names (a server with none picked gives that client
// none of its tools). Pure.
import type { ClientLimits } from '../../src-shared/client-limits.ts';
import { literalGlob } from '../../src-shared/glob.ts';

export function clientSubsetValue(servers: readonly string[], picked: Readonly<Record<string, readonly string[]>>): Record<string, { allow: string[] }> {
  return Object.fromEntries(servers.map((s) => [s, { allow: [...(picked[s] ?? [])].sort().map(literalGlob) }]));
}

/** Whether the client would refuse this tool name with its prefix on it (so it gets a shortened one). */
export function tooLongFor(limits: ClientLimits, profile: string, exposedName: string): boolean {
  return limits.composedName(`switchboard-${profile}`, exposedName).length > limits.maxNameChars;
}

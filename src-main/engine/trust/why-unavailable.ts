// The sentences that say why a server or one of its tools cannot be used right now, and what to
// do about it: the answer of a tools/call, a resource read or a prompt, and the gateway's error.
import type { ServerStatus } from '../../../src-shared/api.ts';

/** A tool withheld since its definition changed (docs/configuration.md, tool pins). */
export function withheldToolSentence(server: string, tool: string): string {
  return `The tool "${tool}" of "${server}" changed since it was approved; review it in the app or run \`switchboard approve ${server}\` to trust the new definition.`;
}

/** A server proposed from outside (an install link, another program) that the user has not approved. */
export function waitingServerSentence(server: string): string {
  return `The server "${server}" was proposed from outside and waits for your approval; its command has not run. Review it in the app or run \`switchboard approve ${server}\`.`;
}

/** Why a configured server takes no calls; undefined when it is ready. `status` undefined: not in config.json. */
export function serverUnavailableSentence(server: string, status: Pick<ServerStatus, 'state' | 'lastError'> | undefined): string | undefined {
  if (!status) return `There is no server "${server}" in config.json.`;
  if (status.state === 'ready') return undefined;
  if (status.state === 'needs-approval') return waitingServerSentence(server);
  const base =
    status.state === 'disabled'
      ? `The server "${server}" is disabled in config.json.`
      : status.state === 'failed'
        ? `The server "${server}" failed to start.`
        : `The server "${server}" is ${status.state}; try again in a moment.`;
  return status.lastError ? `${base} ${status.lastError}` : base;
}

// Argument checks shared by the client commands, with errors that list what the user can type.
import { SwitchboardError } from '../../../src-shared/errors.ts';
import { ClientFileError } from './client-errors.ts';
import { CLIENT_IDS } from './client-specs.ts';
import { getConnector, type Connector, type ConnectorOptions } from './connector.ts';

export function connectorFromArgs(command: string, positionals: string[], opts: ConnectorOptions): Connector {
  const id = positionals[0];
  if (!id) throw new SwitchboardError('bad-request', `${command} needs a client: one of ${CLIENT_IDS.join(', ')}.`);
  if (positionals.length > 1) throw new SwitchboardError('bad-request', `${command} takes one client; unexpected "${positionals[1]}".`);
  return getConnector(id, opts);
}

export function assertInstalled(c: Connector, hint: string): void {
  if (c.installed()) return;
  const where = [...c.lookedAt(), ...c.programs().map((n) => `"${n}" on PATH`)];
  throw new ClientFileError(
    'not-installed',
    where.length
      ? `${c.displayName} does not seem to be installed here: Switchboard looked for ${where.join(', ')}. ${hint}`
      : `${c.displayName} does not run on this operating system. ${hint}`,
  );
}

export function requireProfileFlag(command: string, profile: string | undefined): string {
  if (!profile) throw new SwitchboardError('bad-request', `${command} needs --profile NAME.`);
  return profile;
}

export function assertKnownProfile(profile: string, known: string[]): void {
  if (known.includes(profile)) return;
  throw new SwitchboardError(
    'unknown-profile',
    known.length
      ? `There is no profile "${profile}". Profiles in config.json: ${known.join(', ')}.`
      : `There is no profile "${profile}": config.json has no profiles yet. Add one under "profiles" first.`,
  );
}

// `switchboard logout SERVER`: forgets the server's tokens and registration (docs/configuration.md).
import { SwitchboardError } from '../../../src-shared/errors.ts';
import { SERVER_NAME_RE } from '../../../src-shared/config/schema.ts';
import { ensureHome, homePaths } from '../../engine/platform/home.ts';
import { FileSecretStore } from '../../engine/secrets/secret-store.ts';
import { signInSecretName } from '../../engine/upstream/oauth/sign-in-store.ts';
import type { CliContext } from '../command-context.ts';
import { reconnectIfRunning } from './login.ts';

export async function run(args: string[], ctx: CliContext): Promise<number> {
  const [server, ...rest] = args;
  if (!server || rest.length || !SERVER_NAME_RE.test(server)) throw new SwitchboardError('bad-request', 'Usage: switchboard logout SERVER');
  const paths = homePaths(ctx.home);
  ensureHome(paths);
  const removed = new FileSecretStore(paths.secretsFile).delete(signInSecretName(server));
  ctx.stdout(removed ? `Signed out of ${server}; its tokens are forgotten.\n` : `There was no sign-in stored for ${server}.\n`);
  if (removed && (await reconnectIfRunning(paths, server))) ctx.stdout(`The running engine reconnected ${server}.\n`);
  return 0;
}

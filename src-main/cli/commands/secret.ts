// `switchboard secret set NAME` (value on stdin) · `switchboard secret delete NAME`.
// Values never pass through argv (visible to other users in `ps`) nor config.json.
import { readFileSync } from 'node:fs';
import { SwitchboardError } from '../../../src-shared/errors.ts';
import { ensureHome, homePaths } from '../../engine/platform/home.ts';
import { FileSecretStore, SECRET_NAME_RE } from '../../engine/secrets/secret-store.ts';
import type { CliContext } from '../command-context.ts';

export async function run(args: string[], ctx: CliContext): Promise<number> {
  const [verb, name, ...rest] = args;
  if (!verb || !['set', 'delete', 'list'].includes(verb) || (verb !== 'list' && !name) || rest.length) {
    throw new SwitchboardError('bad-request', 'Usage: switchboard secret set NAME (the value on stdin) | secret delete NAME | secret list');
  }
  const paths = homePaths(ctx.home);
  ensureHome(paths);
  const store = new FileSecretStore(paths.secretsFile);
  if (verb === 'list') {
    for (const n of store.names()) ctx.stdout(n + '\n');
    return 0;
  }
  if (!SECRET_NAME_RE.test(name!)) throw new SwitchboardError('bad-request', `"${name}" is not a secret name: use letters, digits, "_", "." and "-".`);
  if (verb === 'delete') {
    if (!store.delete(name!)) {
      ctx.stderr(`switchboard: there is no secret "${name}".\n`);
      return 1;
    }
    ctx.stdout(`Deleted the secret "${name}".\n`);
    return 0;
  }
  let value: string;
  try {
    value = readFileSync(0, 'utf8').replace(/\r?\n$/, '');
  } catch {
    throw new SwitchboardError('bad-request', 'Pipe the secret value on stdin, e.g. `printf %s "$TOKEN" | switchboard secret set NAME`.');
  }
  if (value === '') throw new SwitchboardError('bad-request', 'The secret value on stdin is empty; nothing was stored.');
  store.set(name!, value);
  ctx.stdout(`Stored the secret "${name}" in ${store.kind === 'file' ? `an owner-only file (${paths.secretsFile})` : 'the OS keychain'}. Use it in config.json as { "secret": "${name}" }.\n`);
  return 0;
}

// `switchboard exec --profile P [FILE|-]`: run code as the profile's execute would; exit 1 on
// an error kind. Starts an engine when none runs (the upstream servers live there).
import { readFileSync } from 'node:fs';
import { SwitchboardError } from '../../../src-shared/errors.ts';
import { homePaths } from '../../engine/platform/home.ts';
import { ensureEngine } from '../engine-client.ts';
import { parseFlags } from '../args.ts';
import type { CliContext } from '../command-context.ts';

export async function run(args: string[], ctx: CliContext): Promise<number> {
  const { values, positionals } = parseFlags('exec', args, { profile: { type: 'string' } });
  if (!values.profile) throw new SwitchboardError('bad-request', 'Usage: switchboard exec --profile P [FILE|-]  (code from FILE, or stdin)');
  const source = positionals[0] ?? '-';
  let code: string;
  try {
    code = source === '-' ? readFileSync(0, 'utf8') : readFileSync(source, 'utf8');
  } catch (e) {
    throw new SwitchboardError('io-error', `Could not read ${source === '-' ? 'stdin' : source}: ${(e as Error).message}`);
  }
  const client = await ensureEngine(homePaths(ctx.home));
  try {
    const r = await client.call('exec', { profile: values.profile, code, client: 'switchboard-cli' });
    (r.isError ? ctx.stderr : ctx.stdout)(r.text.endsWith('\n') ? r.text : r.text + '\n');
    return r.isError ? 1 : 0;
  } finally {
    client.close();
  }
}

// `switchboard search TEXT [--json] [--limit N] [--cursor C]`: servers in the MCP Registry whose
// name contains TEXT, newest version of each, with their status and whether an installed one has
// an update. `--json` prints one JSON array of the hits (docs/command-line.md); when the registry has more, a
// line on stderr gives the command for the next page (`--cursor`).
import { SwitchboardError } from '../../../src-shared/errors.ts';
import { readInstalled, toHits } from '../../engine/catalog/installed.ts';
import { intFlag, parseFlags } from '../args.ts';
import type { CliContext } from '../command-context.ts';
import { registryFor } from './install.ts';

/** The same search as one shell word each, for the "more" line. */
function shellWord(s: string): string {
  return /^[A-Za-z0-9_./:@=,+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

export async function run(args: string[], ctx: CliContext): Promise<number> {
  const { values, positionals } = parseFlags('search', args, { json: { type: 'boolean' }, limit: { type: 'string' }, cursor: { type: 'string' } });
  const text = positionals.join(' ').trim();
  if (!text) throw new SwitchboardError('bad-request', 'search needs some text, e.g. `switchboard search github`.');
  const registry = await registryFor(ctx);
  const page = await registry.search(text, { limit: intFlag(values.limit, '--limit', 30), ...(values.cursor ? { cursor: values.cursor } : {}) });
  const hits = toHits(page.servers, await readInstalled(ctx.home));
  const more = () => {
    if (!page.nextCursor) return;
    const again = ['switchboard', 'search', shellWord(text), ...(values.json ? ['--json'] : []), ...(values.limit ? ['--limit', values.limit] : []), '--cursor', shellWord(page.nextCursor)];
    ctx.stderr(`${registry.baseUrl} has more matches; the next ones: ${again.join(' ')}\n`);
  };
  if (values.json) {
    ctx.stdout(JSON.stringify(hits, null, 2) + '\n');
    more();
    return 0;
  }
  if (!hits.length) {
    ctx.stdout(`No servers in ${registry.baseUrl} match "${text}".\n`);
    return 0;
  }
  for (const h of hits) {
    const flags = [h.status !== 'active' ? h.status.toUpperCase() : null, h.installed ? (h.installed.update ? `installed as "${h.installed.serverName}" ${h.installed.version}, update available` : `installed as "${h.installed.serverName}"`) : null].filter(Boolean);
    ctx.stdout(`${h.name} ${h.version}${flags.length ? `  [${flags.join('; ')}]` : ''}  (${h.kinds.join(', ') || 'no package'})\n  ${h.title ? `${h.title}: ` : ''}${h.description}\n`);
  }
  if (page.skipped) ctx.stdout(`(${page.skipped} entr${page.skipped === 1 ? 'y' : 'ies'} left out: not valid server.json)\n`);
  ctx.stdout(`Install one with: switchboard install NAME\n`);
  more();
  return 0;
}

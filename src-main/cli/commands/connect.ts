// `switchboard connect CLIENT --profile P [--force] [--trust-folder DIR] [--no-check]`: add the profile's shim
// entry to a client, then say exactly what is left to do in that client.
import path from 'node:path';
import type { ClientWriteResult } from '../../../src-shared/api.ts';
import { assertInstalled, assertKnownProfile, connectorFromArgs, requireProfileFlag } from '../../engine/clients/client-lookup.ts';
import { entryName, type Connector } from '../../engine/clients/connector.ts';
import { checkListing } from '../../engine/clients/listing.ts';
import { parseFlags } from '../args.ts';
import type { CliContext } from '../command-context.ts';
import { SocketControlClient } from '../engine-client.ts';
import { homePaths } from '../../engine/platform/home.ts';
import { isLimitedClient } from '../../../src-shared/client-limits.ts';
import { terminalSafe as t } from '../../../src-shared/terminal-text.ts';

/** The first line of a connect's report: added, updated, or replaced someone else's entry. */
export function connectSummary(c: Connector, profile: string, out: ClientWriteResult): string {
  const name = `"switchboard-${profile}"`;
  const how =
    out.replaced === 'other' ? `replaced the existing ${name} entry (it had been changed by hand or by another program) in`
    : out.replaced === 'ours' ? `updated ${name} in`
    : `added ${name} to`;
  return `Connected ${c.displayName} to profile "${profile}": ${how} ${out.path}` + (out.via === 'claude-cli' ? ' (through the claude CLI)' : '') + '.\n';
}

export async function run(args: string[], ctx: CliContext): Promise<number> {
  const { values, positionals } = parseFlags('connect', args, {
    profile: { type: 'string' },
    force: { type: 'boolean' },
    'trust-folder': { type: 'string' },
    'no-check': { type: 'boolean' },
  });
  const c = connectorFromArgs('connect', positionals, { home: ctx.home, env: ctx.env, platform: ctx.platform });
  const profile = requireProfileFlag('connect', values.profile);
  assertKnownProfile(profile, await ctx.profiles());
  if (c.kind === 'copy-paste') return showPasteSteps(c, profile, ctx);
  // --force covers portable installs and clients installed after a fresh OS setup.
  if (!values.force) assertInstalled(c, `Install it first, or pass --force to create ${c.configPath()} anyway.`);
  const trustDir = values['trust-folder'];
  const out = await c.connect(profile, ctx.shimEntry(profile));
  if (!out.changed) {
    ctx.stdout(`${c.displayName} is already connected to profile "${profile}" (${out.path}); nothing changed.\n`);
  } else {
    ctx.stdout(connectSummary(c, profile, out) + (out.backup ? `Backup of the previous file: ${out.backup}\n` : ''));
  }
  if (trustDir !== undefined) {
    const dir = path.resolve(trustDir);
    const trusted = await c.trustFolder(dir);
    ctx.stdout(trusted.changed ? `Trusted ${dir} in ${trusted.path}.\n` : `${dir} is already trusted in ${trusted.path}.\n`);
  }
  const shared = c.sharedWith();
  if (shared) ctx.stdout(`${c.displayName} reads ${shared}'s file (${out.path}): the one entry serves both, so ${shared} sees it too.\n`);
  // The client's own listing, when it has one and is installed: proof it sees the entry.
  const check = values['no-check'] || !c.installed() ? undefined : await checkListing(c.id, c.displayName, entryName(profile), { env: ctx.env, platform: ctx.platform });
  ctx.stdout(check ? `${check.message}\n` : `Next: ${c.spec.nextStep}\n`);
  if (check && check.outcome !== 'connected') ctx.stdout(`Next: ${c.spec.nextStep}\n`);
  const trust = trustDir === undefined ? await c.trustAdvice(out.changed) : null;
  if (trust) {
    const folders = trust.trusted.map((f) => t(f)).join(', ');
    ctx.stdout(
      trust.offer
        ? `${c.displayName} ignores MCP servers in folders it does not trust. To trust the folder you work in, run:\n` +
            `  switchboard connect ${c.id} --profile ${profile} --trust-folder DIR   (adds DIR to ${c.trustFile()})\n` +
            (folders ? `  Trusted now: ${folders}.\n` : '')
        : `${c.displayName} loads the entry in sessions started in ${folders} (its trusted folders).\n`,
    );
  }
  if (out.changed) ctx.stdout(`To take it back: switchboard disconnect ${c.id} --profile ${profile} (or switchboard undo ${c.id})\n`);
  const limits = await clientLimits(ctx, c.id, profile);
  if (limits?.shortened) ctx.stdout(`Note: ${t(limits.shortened)}\n`);
  for (const w of limits?.warnings ?? []) ctx.stdout(`Warning: ${t(w)}\n`);
  return 0;
}

/** A client whose server list lives in its own UI: the numbered steps, with the exact command and args; nothing is written. */
function showPasteSteps(c: Connector, profile: string, ctx: CliContext): number {
  const steps = c.pasteSteps(profile, ctx.shimEntry(profile));
  ctx.stdout(
    `${c.displayName} keeps its MCP servers in its own settings, so Switchboard writes nothing. To connect it to profile "${profile}":\n` +
      steps.map((s, i) => `  ${i + 1}. ${s}\n`).join('') +
      `Then: ${c.spec.nextStep}\n` +
      (c.installed() ? '' : `(${c.displayName} was not found on this computer; the steps apply once it is installed.)\n`),
  );
  return 0;
}

/**
 * Where the profile, as this client would get it, goes past the client's limits, and which tool
 * names are shortened for it: asked of a running engine (it knows the live catalogs); with none
 * running there is nothing to count yet.
 */
async function clientLimits(ctx: CliContext, client: string, profile: string): Promise<{ warnings: string[]; shortened?: string } | undefined> {
  if (!isLimitedClient(client)) return undefined;
  const engine = await SocketControlClient.connect(homePaths(ctx.home));
  if (!engine) return undefined;
  try {
    return await engine.call('profiles.clientLimits', { profile, client });
  } catch {
    // The entry is written either way; a warning that cannot be computed is left out.
    return undefined;
  } finally {
    engine.close();
  }
}

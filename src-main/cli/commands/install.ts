// `switchboard install NAME [--version V] [--yes | --propose] [--name KEY] [--remote]`: add a server from the
// MCP Registry. The approval screen shows exactly what will run (command, arguments, env; or URL
// and headers), what runs it and whether that is installed; secret values are asked for and go
// to the secret store; nothing is written without the user's yes (docs/configuration.md).
import { readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { SERVER_NAME_RE } from '../../../src-shared/config/schema.ts';
import { configPointer } from '../../../src-shared/config/paths.ts';
import { SwitchboardError } from '../../../src-shared/errors.ts';
import { bundlePlan, readBundle } from '../../engine/catalog/bundle.ts';
import { bundleDir, stageProposedBundle, sweepBundles, unpackBundle, withBundleLock } from '../../engine/catalog/bundle-store.ts';
import { linkPlan, parseInstallLink, type InstallLink } from '../../engine/catalog/install-link.ts';
import { buildPlan, previewPlan, resolvePlan, serverKeyFor, type InstallPlan, type PlanInput } from '../../engine/catalog/install-plan.ts';
import { findInstalled, readInstalled, recordInstalled } from '../../engine/catalog/installed.ts';
import { RegistryClient, registryTimeoutMs } from '../../engine/catalog/registry-client.ts';
import { probeSignIn } from '../../engine/catalog/sign-in-probe.ts';
import { compareVersions, type RegistryEntry } from '../../engine/catalog/server-json.ts';
import { checkServer } from '../../engine/clients/doctor.ts';
import type { CarriedRuntime } from '../../engine/upstream/carried-runtime.ts';
import { isCodeLoadingEnv } from '../../engine/trust/code-loading-env.ts';
import { ensureHome, homePaths } from '../../engine/platform/home.ts';
import { FileSecretStore } from '../../engine/secrets/secret-store.ts';
import { loginShellPath } from '../../engine/upstream/command-resolve.ts';
import { parseFlags } from '../args.ts';
import { homeCall } from '../home-control.ts';
import type { CliContext } from '../command-context.ts';
import { run as login } from './login.ts';

/** What install needs from outside, replaceable in tests. */
export interface InstallDeps {
  /** Asks one question; null when there is nobody to answer (stdin closed or not a terminal). */
  ask(question: string, opts: { secret: boolean }): Promise<string | null>;
  /** The PATH the engine adds to a server's (the login shell's), for the runner check. */
  loginPath(): Promise<string>;
  /** The Node lent to npx/node servers when they are missing (carried-runtime.ts); undefined: carriedRuntime(), null: none. */
  runtime?: CarriedRuntime | null;
}


type HomeContext = Pick<CliContext, 'home' | 'homeIsDefault' | 'env' | 'platform'>;

function configGet(ctx: HomeContext, path: string): Promise<{ found: boolean; value?: unknown }> {
  return homeCall(ctx, 'config.get', { path });
}

/**
 * Writes a server's entry in one step under config.json's lock. Unless `replaces` (an update of
 * the entry this registry server was installed as), only when the name is still free: another
 * install or edit may have taken it while the user read the approval screen.
 */
async function writeServer(ctx: HomeContext, name: string, value: unknown, replaces: boolean): Promise<void> {
  try {
    await homeCall(ctx, 'config.set', { path: configPointer('servers', name), value, ...(replaces ? {} : { ifAbsent: true }) });
  } catch (err) {
    if (!(err instanceof SwitchboardError && err.code === 'conflict')) throw err;
    throw new SwitchboardError('conflict', `config.json got a server "${name}" from elsewhere while this install ran; nothing was written to it. Run the install again to add it under a free name.`);
  }
}

/** The registry client for this home's settings.registry (the official registry by default). */
export async function registryFor(ctx: HomeContext): Promise<RegistryClient> {
  const setting = await configGet(ctx, configPointer('settings', 'registry'));
  return new RegistryClient({ baseUrl: setting.found ? (setting.value as string) : undefined, timeoutMs: registryTimeoutMs(ctx.env) });
}

/**
 * Reads answers from stdin: a terminal gets prompts on stderr (secrets not echoed), a pipe one
 * line each, its prompts on stdout so that a transcript reads in order (question, then what
 * follows the answer). Each prompt is out before the answer is read.
 */
export function stdinAsker(ctx: CliContext): InstallDeps['ask'] {
  let lines: AsyncIterableIterator<string> | null = null;
  let closed = false;
  return async (question, { secret }) => {
    if (closed) return null;
    const tty = process.stdin.isTTY === true;
    const say = tty ? ctx.stderr : ctx.stdout;
    say(question);
    await flushed(tty ? process.stderr : process.stdout);
    if (tty && secret) return readHidden(ctx);
    lines ??= createInterface({ input: process.stdin, terminal: false })[Symbol.asyncIterator]();
    const next = await lines.next();
    // A piped answer is not echoed: end the prompt's line so the next text starts on its own.
    if (!tty) say('\n');
    if (next.done) {
      closed = true;
      if (tty) say('\n');
      return null;
    }
    return next.value;
  };
}

/** Resolves once everything written to `stream` so far has been handed to the system. */
function flushed(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => {
    if (stream.destroyed || !stream.writable) resolve();
    else stream.write('', () => resolve());
  });
}

function readHidden(ctx: CliContext): Promise<string | null> {
  return new Promise((resolve) => {
    const stdin = process.stdin;
    let value = '';
    stdin.setRawMode(true);
    stdin.resume();
    const onData = (b: Buffer) => {
      for (const ch of b.toString('utf8')) {
        if (ch === '\r' || ch === '\n' || ch === '\u0004') {
          stdin.setRawMode(false);
          stdin.pause();
          stdin.off('data', onData);
          ctx.stderr('\n');
          resolve(value);
          return;
        }
        if (ch === '\u0003') {
          stdin.setRawMode(false);
          stdin.off('data', onData);
          resolve(null);
          return;
        }
        if (ch === '\u007f') value = value.slice(0, -1);
        else value += ch;
      }
    };
    stdin.on('data', onData);
  });
}

function statusLine(e: RegistryEntry): string {
  if (e.status === 'deprecated') return `Note: the registry marks ${e.name} ${e.version} as DEPRECATED; its publisher no longer recommends it.\n`;
  return '';
}

function describeInput(i: PlanInput): string {
  const bits = [i.isSecret ? 'secret, not shown' : null, i.isRequired ? 'required' : 'optional, Enter to skip', i.default !== undefined ? `default ${i.default}` : null, i.choices ? `one of ${i.choices.join(', ')}` : null].filter(Boolean);
  return `${i.label}${i.description ? ` — ${i.description}` : ''} (${bits.join('; ')}): `;
}

/** The exact entry that would be written, as the approval screen shows it. */
export function approvalText(plan: InstallPlan, config: Record<string, unknown>, runner: { resolved: string | null; advice: string[] } | null): string {
  const lines: string[] = [];
  lines.push(`Server "${plan.serverName}" from ${plan.entry.name}${plan.entry.version ? ` ${plan.entry.version}` : ""} (${plan.source})`);
  if (plan.entry.description) lines.push(`  ${plan.entry.description}`);
  if (plan.kind === 'package') {
    lines.push(`  command: ${JSON.stringify(config.command)}`);
    lines.push(`  args:    ${JSON.stringify(config.args)}`);
    const env = (config.env ?? {}) as Record<string, unknown>;
    for (const [k, v] of Object.entries(env)) {
      lines.push(`  env ${k} = ${typeof v === 'string' ? JSON.stringify(v) : `{ "secret": "${(v as { secret: string }).secret}" } (the value you typed, kept in the secret store, not in config.json)`}`);
      if (isCodeLoadingEnv(k)) lines.push(`    WARNING: ${k} changes what code the command loads; agree only if you trust where this server came from.`);
    }
    if (runner) {
      lines.push(runner.resolved ? `  runs with: ${runner.resolved}` : `  runs with: ${plan.runner} — NOT FOUND on this computer`);
      for (const a of runner.advice) lines.push(`    ${a}`);
    }
  } else {
    lines.push(`  url:       ${JSON.stringify(config.url)} (${config.transport === 'sse' ? 'SSE' : 'Streamable HTTP'})`);
    for (const [k, v] of Object.entries((config.headers ?? {}) as Record<string, unknown>)) {
      lines.push(`  header ${k} = ${typeof v === 'string' ? JSON.stringify(v) : `{ "secret": "${(v as { secret: string }).secret}" } (kept in the secret store)`}`);
    }
    lines.push('  runs on the remote service; if it asks you to sign in: switchboard login ' + plan.serverName);
  }
  return lines.join('\n') + '\n';
}

export async function run(args: string[], ctx: CliContext, deps?: Partial<InstallDeps>): Promise<number> {
  const { values, positionals } = parseFlags('install', args, {
    version: { type: 'string' },
    yes: { type: 'boolean' },
    name: { type: 'string' },
    remote: { type: 'boolean' },
    propose: { type: 'boolean' },
  });
  if (positionals.length !== 1) throw new SwitchboardError('bad-request', 'install takes one registry name, e.g. `switchboard install io.github.user/weather` (find names with `switchboard search TEXT`).');
  let name = positionals[0]!;
  if (values.propose && values.yes) throw new SwitchboardError('bad-request', 'install: --propose leaves the approval to the user and --yes gives it; use one of them.');
  const d: InstallDeps = { ask: deps?.ask ?? stdinAsker(ctx), loginPath: deps?.loginPath ?? loginShellPath, ...(deps?.runtime !== undefined ? { runtime: deps.runtime } : {}) };
  if (/\.mcpb$/i.test(name)) return installBundle(name, values, ctx, d);
  if (/^(switchboard|cursor|vscode|vscode-insiders|https):/i.test(name)) {
    const link = parseInstallLink(name);
    if (link.kind === 'entry') return installFromLink(link, values, ctx, d);
    name = link.name;
    if (link.version && !values.version) values.version = link.version;
  }
  const registry = await registryFor(ctx);
  const entry = await registry.get(name, values.version ?? 'latest');
  if (!entry) {
    throw new SwitchboardError('not-found', `The MCP Registry at ${registry.baseUrl} has no ${values.version ? `version ${values.version} of ` : ''}"${name}". Find names with \`switchboard search TEXT\`.`);
  }
  if (entry.status === 'deleted') {
    throw new SwitchboardError('denied', `${entry.name} ${entry.version} was deleted from the registry (usually for security or legal reasons); Switchboard will not install it.`);
  }

  const installed = findInstalled(await readInstalled(ctx.home), entry.name);
  const requested = values.name;
  if (requested !== undefined && !SERVER_NAME_RE.test(requested)) throw new SwitchboardError('bad-request', `--name "${requested}" is not a server name: letters, digits, "_", "." and "-".`);
  let serverName = requested ?? installed?.serverName ?? buildPlan(entry, values.remote ? { prefer: 'remote' } : {}).serverName;
  const existing = await configGet(ctx, configPointer('servers', serverName));
  if (existing.found && installed?.serverName !== serverName) {
    if (requested) throw new SwitchboardError('bad-request', `config.json already has a server "${serverName}"; choose another --name.`);
    let n = 2;
    while ((await configGet(ctx, configPointer('servers', `${serverName}-${n}`))).found) n++;
    serverName = `${serverName}-${n}`;
  }
  if (installed && installed.serverName === serverName) {
    const cmp = compareVersions(entry.version, installed.version);
    if (cmp === 0 && existing.found) {
      ctx.stdout(`"${serverName}" is already ${entry.name} ${entry.version}; nothing to do.\n`);
      return 0;
    }
    ctx.stdout(cmp > 0 ? `Update available: "${serverName}" is ${installed.version}; the registry has ${entry.version}.\n` : `"${serverName}" is ${installed.version}; this replaces it with ${entry.version}.\n`);
  }
  ctx.stdout(statusLine(entry));

  const plan = buildPlan(entry, { serverName, ...(values.remote ? { prefer: 'remote' as const } : {}) });
  const replaces = installed?.serverName === serverName && existing.found;
  const approved = await approveAndWrite(plan, ctx, d, approvalOf(values, `\`switchboard install ${entry.name}\` (${entry.version})`), { replaces });
  if (!approved) return 1;
  await recordInstalled(ctx.home, { registry: registry.baseUrl, name: entry.name, version: entry.version, serverName, installedAt: new Date().toISOString() });
  return 0;
}

/**
 * The config key a link or bundle goes to: `--name` as given (refused when taken: nothing is
 * replaced), else `base`, `base-2`, … whichever is free.
 */
async function freeServerName(ctx: CliContext, base: string, requested: string | undefined): Promise<string> {
  const taken = async (n: string) => (await configGet(ctx, configPointer('servers', n))).found;
  if (requested !== undefined) {
    if (!SERVER_NAME_RE.test(requested)) throw new SwitchboardError('bad-request', `--name "${requested}" is not a server name: letters, digits, "_", "." and "-".`);
    if (await taken(requested)) throw new SwitchboardError('bad-request', `config.json already has a server "${requested}"; choose another --name. Nothing was written.`);
    return requested;
  }
  let name = base;
  for (let n = 2; await taken(name); n++) name = `${base}-${n}`;
  return name;
}

/**
 * How the user approves: asked here, `--yes` on the command line, or later (`--propose`: the entry
 * is written with `proposedBy` and waits in needs-approval, never run, until approved; docs/configuration.md).
 */
export type Approval = { kind: 'ask' } | { kind: 'yes' } | { kind: 'propose'; by: string };

function approvalOf(values: { yes?: boolean; propose?: boolean }, by: string): Approval {
  return values.propose ? { kind: 'propose', by } : values.yes ? { kind: 'yes' } : { kind: 'ask' };
}

/**
 * The approval screen and the write, the same for registry servers and bundles: show exactly what
 * will run (values still to be asked shown as <their label>), ask for a yes, then ask the values,
 * store secrets and add the server. `writeWith` wraps the write, after the yes (a bundle is
 * unpacked then). Returns false when nothing was written. A proposal asks nothing: defaults only,
 * and a value only the user can give refuses it.
 */
async function approveAndWrite(
  plan: InstallPlan,
  ctx: CliContext,
  d: InstallDeps,
  approval: Approval,
  { writeWith = (w) => w(), replaces = false }: { writeWith?: (write: () => Promise<void>) => Promise<void>; replaces?: boolean } = {},
): Promise<boolean> {
  const { serverName } = plan;
  const runner =
    plan.kind === 'package'
      ? await checkServer(serverName, { command: plan.command! }, { home: ctx.home, env: ctx.env, platform: ctx.platform, ...(d.runtime !== undefined ? { runtime: d.runtime } : {}) }, await d.loginPath(), true)
      : null;
  const asks = approval.kind !== 'propose' && plan.inputs.length > 0;
  if (approval.kind === 'propose') {
    // A proposal never takes the place of an entry: that entry would stop running, and the user,
    // approving "the same" server, would approve something else.
    if ((await configGet(ctx, configPointer('servers', serverName))).found) {
      throw new SwitchboardError('denied', `config.json already has a server "${serverName}", and a proposal never replaces one. Nothing was written; to update it, run \`switchboard install\` yourself.`);
    }
    const needed = plan.inputs.find((i) => i.isRequired && i.default === undefined);
    if (needed) throw new SwitchboardError('bad-request', `${plan.entry.name} needs a value only you can give (${needed.label}); install it without --propose. Nothing was written.`);
  }
  ctx.stdout(approvalText(plan, asks ? previewPlan(plan) : resolvePlan(plan, new Map()).config, runner));
  if (runner && !runner.resolved) ctx.stdout(`The server will not start until ${plan.runner} is installed; you can add it now and install ${plan.runner} later.\n`);
  if (asks) ctx.stdout(`${plan.entry.name} needs ${plan.inputs.length} value(s), asked ${approval.kind === 'ask' ? 'after your yes' : 'next'}: ${plan.inputs.map((i) => i.label).join(', ')}.\n`);
  if (approval.kind === 'ask') {
    const answer = await d.ask(`Add "${serverName}" to config.json? [y/N] `, { secret: false });
    if (answer === null || !/^y(es)?$/i.test(answer.trim())) {
      ctx.stdout(answer === null ? 'Nothing was written: no answer (pass --yes to approve without a prompt).\n' : 'Nothing was written.\n');
      return false;
    }
  }
  const answers = new Map<number, string>();
  for (const inp of asks ? plan.inputs : []) {
    const v = await d.ask(describeInput(inp), { secret: inp.isSecret });
    if (v === null) {
      if (inp.isRequired && inp.default === undefined) {
        throw new SwitchboardError('bad-request', `No value for ${inp.label} (give one on stdin, one line per value). Nothing was written.`);
      }
      continue;
    }
    if (v !== '') answers.set(inp.id, v);
  }
  const resolved = resolvePlan(plan, answers);
  if (asks) ctx.stdout(`With your values, the entry is:\n${approvalText(plan, resolved.config, null)}`);
  let added = false;
  await writeWith(async () => {
    added = await writeEntry(plan, resolved, ctx, approval, replaces);
  });
  if (added && plan.kind === 'remote' && approval.kind !== 'propose') await offerSignIn(serverName, resolved.config, ctx, d, approval.kind === 'yes');
  return true;
}

/** Stores the secrets and writes the entry (a proposal with `proposedBy`); true when added for use now. */
async function writeEntry(plan: InstallPlan, resolved: ReturnType<typeof resolvePlan>, ctx: CliContext, approval: Approval, replaces: boolean): Promise<boolean> {
  const { serverName } = plan;
  if (Object.keys(resolved.secrets).length) {
    const paths = homePaths(ctx.home);
    ensureHome(paths);
    const store = new FileSecretStore(paths.secretsFile);
    for (const [k, v] of Object.entries(resolved.secrets)) store.set(k, v);
  }
  if (approval.kind === 'propose') {
    await writeServer(ctx, serverName, { ...resolved.config, proposedBy: approval.by }, false);
    ctx.stdout(`Proposed "${serverName}": it waits for your approval and nothing of it runs until then (the app's Servers page, or \`switchboard approve ${serverName}\`).\n`);
    return false;
  }
  await writeServer(ctx, serverName, resolved.config, replaces);
  ctx.stdout(
    `Added "${serverName}" to config.json${Object.keys(resolved.secrets).length ? ` and ${Object.keys(resolved.secrets).length} secret(s) to the secret store` : ''}.\n` +
      `Next: add it to a profile, e.g. switchboard config set profiles.PROFILE.servers '[…, "${serverName}"]', or in the app's Profiles page.\n`,
  );
  return true;
}

/**
 * A remote server that answers the install check with 401 wants an OAuth sign-in: say so, and
 * (asked, not with --yes) run the same sign-in as `switchboard login`. The server stays added
 * whatever happens here.
 */
async function offerSignIn(serverName: string, config: Record<string, unknown>, ctx: CliContext, d: InstallDeps, yes: boolean): Promise<void> {
  if ((await probeSignIn(config)) !== 'needed') return;
  ctx.stdout(`${serverName} asks you to sign in (OAuth): its tools can be used once you have.\n`);
  const later = `To sign in later: switchboard login ${serverName} (or "Sign in" on the app's Servers page).\n`;
  const answer = yes ? null : await d.ask(`Sign in to ${serverName} now, in your browser? [Y/n] `, { secret: false });
  if (answer === null || /^n(o)?$/i.test(answer.trim())) {
    ctx.stdout(later);
    return;
  }
  try {
    await login([serverName], ctx);
  } catch (err) {
    ctx.stdout(`The sign-in did not finish: ${(err as Error).message}\n${later}`);
  }
}

/** An install link that carries the entry itself (Cursor, VS Code, switchboard://…&config=). */
async function installFromLink(link: Extract<InstallLink, { kind: 'entry' }>, values: { yes?: boolean; propose?: boolean; name?: string }, ctx: CliContext, d: InstallDeps): Promise<number> {
  const serverName = await freeServerName(ctx, serverKeyFor(`link/${link.name}`), values.name);
  const plan = linkPlan(link, serverName);
  ctx.stdout(`An install link (${link.from}) asks to add the server "${link.name}". Check every part below before you agree.\n`);
  return (await approveAndWrite(plan, ctx, d, approvalOf(values, `an install link (${link.from})`))) ? 0 : 1;
}

/**
 * `install FILE.mcpb`: the bundle is read and checked first; after the yes it is unpacked into a
 * folder of its own (bundle-store.ts), or, proposed, kept packed until the user approves it.
 */
async function installBundle(file: string, values: { yes?: boolean; propose?: boolean; name?: string }, ctx: CliContext, d: InstallDeps): Promise<number> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (err) {
    throw new SwitchboardError('not-found', `Could not read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}.`);
  }
  const bundle = await readBundle(bytes, ctx.platform);
  // Leftovers of an install that was killed, and folders no entry names any more, go first.
  const servers = await configGet(ctx, configPointer('servers'));
  await sweepBundles(ctx.home, (servers.value ?? {}) as Record<string, unknown>);
  const dir = bundleDir(ctx.home, bundle);
  const plan = bundlePlan(bundle.manifest, dir, { env: ctx.env, proposed: values.propose === true });
  plan.serverName = await freeServerName(ctx, plan.serverName, values.name);
  ctx.stdout(`Bundle ${bundle.manifest.name} ${bundle.manifest.version}: ${Object.keys(bundle.files).length} files, ${bundle.manifest.serverType} server (${bundle.manifest.entryPoint || 'no entry point named'}).\n`);
  const ok = await approveAndWrite(plan, ctx, d, approvalOf(values, `the bundle ${bundle.manifest.name} ${bundle.manifest.version}`), {
    writeWith: (write) =>
      withBundleLock(ctx.home, async () => {
        if (values.propose) await stageProposedBundle(ctx.home, bundle, bytes);
        else await unpackBundle(ctx.home, bundle);
        await write();
      }),
  });
  return ok ? 0 : 1;
}

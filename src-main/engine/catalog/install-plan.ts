// server.json → one config.json server entry. The plan names every value the user still has to
// give (secrets included) and how the final command line is put together; `resolvePlan` fills
// them in. Secret values go to the secret store and appear in config.json only as
// { "secret": NAME }. Nothing here runs or writes anything.
import type { CatalogInput } from '../../../src-shared/api.ts';
import { SERVER_NAME_RE } from '../../../src-shared/config/schema.ts';
import { SwitchboardError } from '../../../src-shared/errors.ts';
import type { ArgumentInput, Input, KeyValueInput, PackageInfo, RegistryEntry, RemoteInfo } from './server-json.ts';

/** A value the user is asked for (the same shape the app gets). */
export type PlanInput = CatalogInput;

/** A piece of a value: literal text, or what the user gives for one input. */
type Part = { text: string } | { input: number };
type Template = Part[];

export interface InstallPlan {
  entry: RegistryEntry;
  /** The key under "servers" in config.json. */
  serverName: string;
  kind: 'package' | 'remote';
  /** "npm package @scope/name@1.2.3", "remote https://…". */
  source: string;
  /** The program that runs a package (npx, uvx, docker, dnx), or null for a remote server. */
  runner: string | null;
  inputs: PlanInput[];
  command?: string;
  args: Template[];
  env: Record<string, { template: Template; secret: boolean }>;
  url?: Template;
  transport?: 'http' | 'sse';
  headers: Record<string, { template: Template; secret: boolean }>;
}

export interface ResolvedInstall {
  /** Exactly what goes under servers.<serverName> in config.json. */
  config: Record<string, unknown>;
  /** Secret store entries to write first: name → value. */
  secrets: Record<string, string>;
}

const RUNNERS: Record<string, string> = { npm: 'npx', pypi: 'uvx', oci: 'docker', nuget: 'dnx' };

/** The config key for a registry name: its last segment, made a valid server name. */
export function serverKeyFor(registryName: string): string {
  const last = registryName.split('/').pop() ?? registryName;
  let key = last.replace(/[^A-Za-z0-9_.-]/g, '-').replace(/^[^A-Za-z0-9]+/, '').slice(0, 64);
  if (!SERVER_NAME_RE.test(key)) key = `server-${key}`.slice(0, 64);
  return key;
}

class Builder {
  inputs: PlanInput[] = [];

  /** A template for an Input's value: its fixed value with {variables}, else one asked value. */
  template(inp: Input, label: string): { template: Template; secret: boolean } | null {
    if (inp.value !== undefined) {
      let secret = inp.isSecret;
      const parts: Template = [];
      const re = /\{([^{}]+)\}/g;
      let last = 0;
      for (let m = re.exec(inp.value); m; m = re.exec(inp.value)) {
        const v = inp.variables[m[1]!];
        if (!v) continue; // Unknown placeholders stay as they are (server.json's rule).
        if (m.index > last) parts.push({ text: inp.value.slice(last, m.index) });
        if (v.value !== undefined) parts.push({ text: v.value });
        else parts.push({ input: this.ask(v, `${label} (${m[1]})`) });
        secret ||= v.isSecret;
        last = m.index + m[0].length;
      }
      if (last < inp.value.length) parts.push({ text: inp.value.slice(last) });
      return { template: parts, secret };
    }
    if (!inp.isRequired && inp.default === undefined && !inp.isSecret) return null;
    return { template: [{ input: this.ask(inp, label) }], secret: inp.isSecret };
  }

  ask(inp: Input, label: string): number {
    const id = this.inputs.length;
    this.inputs.push({
      id,
      label,
      ...(inp.description ? { description: inp.description } : {}),
      isSecret: inp.isSecret,
      isRequired: inp.isRequired,
      ...(inp.default !== undefined ? { default: inp.default } : {}),
      ...(inp.choices ? { choices: inp.choices } : {}),
    });
    return id;
  }

  argument(a: ArgumentInput, out: Template[]): void {
    const label = a.type === 'named' ? `argument ${a.name}` : `argument ${a.valueHint ?? '(positional)'}`;
    if (a.type === 'named' && a.value === undefined && !a.isRequired && a.default === undefined) return;
    const t = this.template(a, label);
    if (t?.secret) {
      throw new SwitchboardError(
        'bad-request',
        `This server wants a secret as a command-line argument (${label}); Switchboard keeps secrets only in env or headers, never in config.json, so it cannot install it this way.`,
      );
    }
    if (a.type === 'named') out.push(t ? [{ text: `${a.name}=` }, ...t.template] : [{ text: a.name! }]);
    else if (t) out.push(t.template);
  }

  keyValues(list: KeyValueInput[], kind: 'env' | 'header'): Record<string, { template: Template; secret: boolean }> {
    const out: Record<string, { template: Template; secret: boolean }> = {};
    for (const kv of list) {
      const t = this.template(kv, `${kind} ${kv.name}`);
      if (t) out[kv.name] = t;
    }
    return out;
  }
}

function text(s: string): Template {
  return [{ text: s }];
}

function packagePlan(entry: RegistryEntry, p: PackageInfo, serverName: string): InstallPlan {
  const b = new Builder();
  const runner = p.runtimeHint ?? RUNNERS[p.registryType]!;
  const args: Template[] = [];
  for (const a of p.runtimeArguments) b.argument(a, args);
  const env = b.keyValues(p.environmentVariables, 'env');
  const versioned = (sep: string) => (p.version ? `${p.identifier}${sep}${p.version}` : p.identifier);
  if (p.registryType === 'npm') {
    if (p.runtimeArguments.length === 0) args.push(text('-y'));
    args.push(text(versioned('@')));
  } else if (p.registryType === 'pypi') {
    args.push(text(versioned('==')));
  } else if (p.registryType === 'nuget') {
    args.push(text(versioned('@')));
    if (p.runtimeArguments.length === 0) args.push(text('--yes'));
  } else if (p.registryType === 'oci') {
    if (p.runtimeArguments.length === 0) args.push(text('run'), text('-i'), text('--rm'));
    // docker passes a variable into the container only when told to; its value comes from env.
    for (const name of Object.keys(env)) {
      const given = args.some((t, i) => i > 0 && t.length === 1 && 'text' in t[0]! && t[0].text === name && JSON.stringify(args[i - 1]) === JSON.stringify(text('-e')));
      if (!given) args.push(text('-e'), text(name));
    }
    const tagged = /:[^/]+$/.test(p.identifier) || p.identifier.includes('@sha256:');
    args.push(text(tagged || !p.version ? p.identifier : `${p.identifier}:${p.version}`));
  }
  for (const a of p.packageArguments) b.argument(a, args);
  return {
    entry,
    serverName,
    kind: 'package',
    source: `${p.registryType} package ${p.identifier}${p.version ? ` ${p.version}` : ''}`,
    runner,
    inputs: b.inputs,
    command: runner,
    args,
    env,
    headers: {},
  };
}

function remotePlan(entry: RegistryEntry, r: RemoteInfo, serverName: string): InstallPlan {
  const b = new Builder();
  // URL templates name their variables after headers or other inputs; each unknown one is asked.
  const url: Template = [];
  const re = /\{([^{}]+)\}/g;
  let last = 0;
  for (let m = re.exec(r.url); m; m = re.exec(r.url)) {
    if (m.index > last) url.push({ text: r.url.slice(last, m.index) });
    url.push({ input: b.ask({ isRequired: true, isSecret: false, variables: {} }, `url variable ${m[1]}`) });
    last = m.index + m[0].length;
  }
  if (last < r.url.length) url.push({ text: r.url.slice(last) });
  return {
    entry,
    serverName,
    kind: 'remote',
    source: `remote ${r.url}`,
    runner: null,
    inputs: b.inputs,
    args: [],
    env: {},
    url,
    transport: r.type === 'sse' ? 'sse' : 'http',
    headers: b.keyValues(r.headers, 'header'),
  };
}

/**
 * Picks how to run the server: the first local (stdio) package of a kind Switchboard knows how
 * to start (npm, PyPI, OCI, NuGet), else the first remote. `prefer: 'remote'` reverses that.
 */
export function buildPlan(entry: RegistryEntry, opts: { serverName?: string; prefer?: 'package' | 'remote' } = {}): InstallPlan {
  const serverName = opts.serverName ?? serverKeyFor(entry.name);
  const pkg = entry.packages.find((p) => p.transport.type === 'stdio' && (RUNNERS[p.registryType] || p.runtimeHint));
  const rem = entry.remotes[0];
  if (opts.prefer === 'remote' && rem) return remotePlan(entry, rem, serverName);
  if (pkg) return packagePlan(entry, pkg, serverName);
  if (rem) return remotePlan(entry, rem, serverName);
  const kinds = [...entry.packages.map((p) => `${p.registryType} (${p.transport.type})`)];
  throw new SwitchboardError(
    'bad-request',
    `${entry.name} has no package Switchboard can start (${kinds.join(', ') || 'none listed'}) and no remote URL; see ${entry.websiteUrl ?? entry.repositoryUrl ?? 'its page'} for how to install it.`,
  );
}

/** Secret store name for one value of a server: `<server>.<ENV or header>`. */
export function secretNameFor(serverName: string, key: string): string {
  return `${serverName}.${key}`.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 128);
}

function fill(t: Template, answers: Map<number, string>): string {
  return t.map((p) => ('text' in p ? p.text : (answers.get(p.input) ?? ''))).join('');
}

/** How a template reads before the answers are in: `<env FOO>` for an asked value. */
export function showTemplate(t: Template, plan: InstallPlan): string {
  return t.map((p) => ('text' in p ? p.text : `<${plan.inputs[p.input]!.label}>`)).join('');
}

/**
 * The entry as it will be written, before any value is asked: each value still to come shows as
 * `<its label>`, a secret as the secret store name it will have.
 */
export function previewPlan(plan: InstallPlan): Record<string, unknown> {
  const values = (map: InstallPlan['env']) =>
    Object.fromEntries(Object.entries(map).map(([k, v]) => [k, v.secret ? { secret: secretNameFor(plan.serverName, k) } : showTemplate(v.template, plan)]));
  if (plan.kind === 'remote') {
    const headers = values(plan.headers);
    return { url: showTemplate(plan.url!, plan), transport: plan.transport, ...(Object.keys(headers).length ? { headers } : {}) };
  }
  const env = values(plan.env);
  return { command: plan.command, args: plan.args.map((t) => showTemplate(t, plan)), ...(Object.keys(env).length ? { env } : {}) };
}

/**
 * Fills in the answers (input id → value). Missing required values are an error naming them;
 * an optional value left empty drops its argument, variable or header.
 */
export function resolvePlan(plan: InstallPlan, answers: Map<number, string>): ResolvedInstall {
  const missing = plan.inputs.filter((i) => i.isRequired && !answers.get(i.id) && i.default === undefined);
  if (missing.length) throw new SwitchboardError('bad-request', `Missing values for ${missing.map((m) => m.label).join(', ')}; nothing was written.`);
  const filled = new Map<number, string>();
  for (const i of plan.inputs) {
    const v = answers.get(i.id) || i.default;
    if (v === undefined) continue;
    if (i.choices && !i.choices.includes(v)) throw new SwitchboardError('bad-request', `${i.label} must be one of ${i.choices.join(', ')}; got "${v}".`);
    filled.set(i.id, v);
  }
  const empty = (t: Template) => t.some((p) => 'input' in p && !filled.has(p.input));
  const secrets: Record<string, string> = {};
  const values = (map: InstallPlan['env']) => {
    const out: Record<string, string | { secret: string }> = {};
    for (const [k, { template, secret }] of Object.entries(map)) {
      if (empty(template)) continue;
      const v = fill(template, filled);
      if (secret) {
        const name = secretNameFor(plan.serverName, k);
        secrets[name] = v;
        out[k] = { secret: name };
      } else out[k] = v;
    }
    return out;
  };
  if (plan.kind === 'remote') {
    const headers = values(plan.headers);
    return {
      config: { url: fill(plan.url!, filled), transport: plan.transport, ...(Object.keys(headers).length ? { headers } : {}) },
      secrets,
    };
  }
  const env = values(plan.env);
  const args = plan.args.filter((t) => !empty(t)).map((t) => fill(t, filled));
  return { config: { command: plan.command, args, ...(Object.keys(env).length ? { env } : {}) }, secrets };
}

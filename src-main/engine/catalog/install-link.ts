// Install links, all leading to the same approval screen as `switchboard install`:
//   switchboard://install?name=<registry name>[&version=V]          a server from the registry
//   switchboard://install?server=<key>&config=<base64 JSON entry>    a server entry as such
//   cursor://anysphere.cursor-deeplink/mcp/install?name=N&config=<base64 JSON>   (cursor.com/docs/mcp/install-links)
//   vscode:mcp/install?<URL-encoded JSON { name, command|url, … }>, vscode-insiders:…, and the
//   https://insiders.vscode.dev/redirect?url=… / vscode.dev/redirect/mcp/install?name&config forms.
// A link is untrusted text from a web page: it is parsed, never run; the entry it describes is
// checked against config.json's own schema, and VS Code's ${input:ID} placeholders become
// questions (password inputs become secrets).
import { ServerConfig } from '../../../src-shared/config/schema.ts';
import { SwitchboardError } from '../../../src-shared/errors.ts';
import type { InstallPlan, PlanInput } from './install-plan.ts';
import { cleanText } from './server-json.ts';

export type InstallLink =
  | { kind: 'registry'; name: string; version?: string }
  | { kind: 'entry'; from: 'switchboard' | 'cursor' | 'vscode'; name: string; entry: Record<string, unknown>; inputs: VsCodeInput[] };

export interface VsCodeInput {
  id: string;
  description?: string;
  password: boolean;
}

function bad(why: string): never {
  throw new SwitchboardError('bad-request', `This install link cannot be used: ${why}. Nothing was written.`);
}

function decodeBase64Json(v: string | null, what: string): unknown {
  if (!v) bad(`it has no ${what}`);
  try {
    return JSON.parse(Buffer.from(v.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('utf8'));
  } catch {
    return bad(`its ${what} is not base64-encoded JSON`);
  }
}

function isObj(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** A Cursor config may be the entry itself or `{ "<name>": entry }`. */
function unwrap(v: unknown, name: string | null): { name: string | null; entry: Record<string, unknown> } {
  if (!isObj(v)) bad('its configuration is not a JSON object');
  if ('command' in v || 'url' in v) return { name, entry: v };
  const keys = Object.keys(v);
  if (keys.length === 1 && isObj(v[keys[0]!])) return { name: name ?? keys[0]!, entry: v[keys[0]!] as Record<string, unknown> };
  return bad('its configuration has neither "command" nor "url"');
}

/** Turns a client's entry shape (Cursor, VS Code) into a config.json server entry. */
function normalise(entry: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (entry.command !== undefined && entry.url !== undefined) bad('the server it describes has a "command" and a "url"; a server has one, not both');
  if (entry.command !== undefined) {
    out.command = entry.command;
    if (entry.args !== undefined) out.args = entry.args;
    if (entry.env !== undefined) out.env = entry.env;
    if (entry.cwd !== undefined) out.cwd = entry.cwd;
  } else if (entry.url !== undefined) {
    out.url = entry.url;
    if (entry.type === 'sse') out.transport = 'sse';
    else out.transport = 'http';
    if (entry.headers !== undefined) out.headers = entry.headers;
  }
  const parsed = ServerConfig.safeParse(out);
  if (!parsed.success) bad(`the server it describes is not valid (${parsed.error.issues.map((i) => `${i.path.join('.') || 'entry'}: ${i.message}`).join('; ')})`);
  return out;
}

export function parseInstallLink(link: string): InstallLink {
  let u: URL;
  try {
    u = new URL(link.trim());
  } catch {
    return bad('it is not a URL');
  }
  // Redirect wrappers used where markdown cannot link to vscode: directly.
  if (u.protocol === 'https:' && /(^|\.)vscode\.dev$/.test(u.hostname)) {
    const inner = u.searchParams.get('url');
    if (inner) return parseInstallLink(inner);
    if (/\/redirect\/mcp\/install$/.test(u.pathname)) {
      const { name, entry } = unwrap(decodeBase64Json(u.searchParams.get('config'), 'config') ?? {}, u.searchParams.get('name'));
      return { kind: 'entry', from: 'vscode', name: name ?? 'server', entry: normalise(entry), inputs: [] };
    }
    return bad('it is a vscode.dev link without an install target');
  }
  if (u.protocol === 'switchboard:') {
    if (u.hostname !== 'install' && u.pathname.replace(/^\/+/, '') !== 'install') bad('switchboard: links must be switchboard://install?…');
    const p = u.searchParams;
    if (p.get('config')) {
      const { name, entry } = unwrap(decodeBase64Json(p.get('config'), 'config'), p.get('server'));
      return { kind: 'entry', from: 'switchboard', name: name ?? 'server', entry: normalise(entry), inputs: [] };
    }
    const name = p.get('name');
    if (!name) bad('it names no server (name=…)');
    return { kind: 'registry', name, ...(p.get('version') ? { version: p.get('version')! } : {}) };
  }
  if (u.protocol === 'cursor:') {
    if (u.hostname !== 'anysphere.cursor-deeplink' || u.pathname !== '/mcp/install') bad('it is a Cursor link, but not an MCP install link');
    const { name, entry } = unwrap(decodeBase64Json(u.searchParams.get('config'), 'config'), u.searchParams.get('name'));
    return { kind: 'entry', from: 'cursor', name: name ?? 'server', entry: normalise(entry), inputs: [] };
  }
  if (u.protocol === 'vscode:' || u.protocol === 'vscode-insiders:') {
    if (!/^\/?mcp\/install$/.test(u.pathname)) bad('it is a VS Code link, but not an MCP install link');
    let v: unknown;
    try {
      v = JSON.parse(decodeURIComponent(u.search.slice(1)));
    } catch {
      return bad('its query is not URL-encoded JSON');
    }
    if (!isObj(v) || typeof v.name !== 'string') bad('its JSON has no "name"');
    const inputs: VsCodeInput[] = Array.isArray(v.inputs)
      ? v.inputs.filter(isObj).filter((i) => typeof i.id === 'string').map((i) => ({ id: i.id as string, ...(typeof i.description === 'string' ? { description: cleanText(i.description, 300) } : {}), password: i.password === true }))
      : [];
    return { kind: 'entry', from: 'vscode', name: v.name, entry: normalise(v), inputs };
  }
  return bad(`Switchboard reads switchboard://, cursor:// and vscode: install links, not ${u.protocol}`);
}

/**
 * The install plan of an entry link: the entry exactly as written, except that ${input:ID}
 * placeholders (VS Code) are asked for; a password input in env or headers becomes a secret, one
 * in the command line is refused (secrets never go to config.json).
 */
export function linkPlan(link: Extract<InstallLink, { kind: 'entry' }>, serverName: string): InstallPlan {
  const inputs: PlanInput[] = [];
  const ids = new Map<string, number>();
  const template = (s: string) => {
    const parts: ({ text: string } | { input: number })[] = [];
    let secret = false;
    let last = 0;
    const re = /\$\{input:([^{}]+)\}/g;
    for (let m = re.exec(s); m; m = re.exec(s)) {
      const def = link.inputs.find((i) => i.id === m![1]);
      let id = ids.get(m[1]!);
      if (id === undefined) {
        id = inputs.length;
        ids.set(m[1]!, id);
        inputs.push({ id, label: m[1]!, ...(def?.description ? { description: def.description } : {}), isSecret: def?.password === true, isRequired: true });
      }
      if (m.index > last) parts.push({ text: s.slice(last, m.index) });
      parts.push({ input: id });
      secret ||= def?.password === true;
      last = m.index + m[0].length;
    }
    if (last < s.length) parts.push({ text: s.slice(last) });
    return { template: parts, secret };
  };
  const e = link.entry;
  const values = (rec: unknown) => {
    const out: InstallPlan['env'] = {};
    for (const [k, v] of Object.entries((rec ?? {}) as Record<string, unknown>)) {
      if (typeof v === 'string') out[k] = template(v);
      else if (isObj(v) && typeof v.secret === 'string') bad(`it refers to a secret ("${cleanText(v.secret, 64)}") of this computer`);
    }
    return out;
  };
  const base = {
    entry: { name: link.name, version: '', description: `from a ${link.from === 'vscode' ? 'VS Code' : link.from === 'cursor' ? 'Cursor' : 'Switchboard'} install link`, packages: [], remotes: [], status: 'active' as const },
    serverName,
    inputs,
    headers: {},
  };
  if (typeof e.url === 'string') {
    return { ...base, kind: 'remote', source: `link to ${cleanText(e.url, 300)}`, runner: null, args: [], env: {}, url: template(e.url).template, transport: e.transport === 'sse' ? 'sse' : 'http', headers: values(e.headers) };
  }
  const args = ((e.args ?? []) as string[]).map((a) => {
    const t = template(a);
    if (t.secret) bad('it puts a password input into the command line');
    return t.template;
  });
  return { ...base, kind: 'package', source: `link (${link.from})`, runner: e.command as string, command: e.command as string, args, env: values(e.env) };
}

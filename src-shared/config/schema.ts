// The one schema of config.json (docs/configuration.md). Pure: no Node, no DOM.
// Objects are loose so that keys we do not know survive a rewrite by the app.
import { z } from 'zod';
import { isLimitedClient, LIMITED_CLIENT_IDS } from '../client-limits.ts';
import { globProblem } from '../glob.ts';
import { serverNameClash } from '../names.ts';
import { UPDATE_CHANNELS } from '../updates.ts';

/** A value read from the secret store instead of being kept in config.json. */
export const SecretRef = z.strictObject({ secret: z.string().min(1, 'expected a secret name') });
export type SecretRef = z.infer<typeof SecretRef>;

export const SecretOrString = z.union([z.string(), SecretRef], {
  error: 'expected a string or { "secret": "NAME" }',
});
export type SecretOrString = z.infer<typeof SecretOrString>;

const positiveInt = z.int({ error: 'expected a positive integer' }).positive({ error: 'expected a positive integer' });

/** Server names become tool prefixes and code-mode globals; keep them to safe characters. */
export const SERVER_NAME_RE = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
/** Profile names appear in URLs (/mcp/<profile>) and client entries (switchboard-<profile>). */
export const PROFILE_NAME_RE = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/**
 * Sign-in settings of a remote server (docs/configuration.md). Only needed when its authorization server
 * does not offer dynamic client registration: the client registered by hand, and the fixed
 * loopback port its redirect URI was registered with.
 */
export const OAuthClientConfig = z.looseObject({
  clientId: z.string().min(1, 'expected a client id').optional(),
  clientSecret: SecretOrString.optional(),
  scopes: z.array(z.string({ error: 'expected a string' }), { error: 'expected an array of scopes' }).optional(),
  callbackPort: z.int({ error: 'expected a port number' }).min(1, 'expected a port number').max(65535, 'expected a port number').optional(),
});
export type OAuthClientConfig = z.infer<typeof OAuthClientConfig>;

/** An absolute folder path: POSIX (`/srv/data`) or Windows (`C:\\data`, `\\\\host\\share`). */
export function isAbsoluteFolderPath(p: string): boolean {
  return p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p) || p.startsWith('\\\\');
}

const AbsolutePath = z
  .string({ error: 'expected an absolute folder path' })
  .refine((p) => isAbsoluteFolderPath(p) && !p.includes('\0'), 'expected an absolute folder path, such as "/Users/me/projects"');

/**
 * Where a server's `roots/list` is answered from (docs/configuration.md): `"config"` (the default) answers its
 * own `roots`; `"client"` relays the roots of the one client using the server, and only while
 * that client is the only one.
 */
export const ROOTS_FROM = ['config', 'client'] as const;

export const ServerConfig = z
  .looseObject({
    command: z.string().min(1, 'expected a command').optional(),
    args: z.array(z.string({ error: 'expected a string' }), { error: 'expected an array of strings' }).optional(),
    env: z.record(z.string(), SecretOrString, { error: 'expected an object of strings' }).optional(),
    cwd: z.string().min(1).optional(),
    url: z
      .string()
      .refine((u) => {
        try {
          const p = new URL(u);
          return p.protocol === 'http:' || p.protocol === 'https:';
        } catch {
          return false;
        }
      }, 'expected an http:// or https:// URL')
      .optional(),
    headers: z.record(z.string(), SecretOrString, { error: 'expected an object of strings' }).optional(),
    transport: z.enum(['http', 'sse'], { error: 'expected "http" or "sse"' }).optional(),
    callTimeoutSec: positiveInt.optional(),
    disabled: z.boolean({ error: 'expected true or false' }).optional(),
    oauth: OAuthClientConfig.optional(),
    roots: z.array(AbsolutePath, { error: 'expected an array of absolute folder paths' }).optional(),
    rootsFrom: z.enum(ROOTS_FROM, { error: 'expected "config" or "client"' }).optional(),
    /**
     * Set when the entry was proposed from outside (an install link, another program) rather than
     * written by the user: who proposed it. The server waits in `needs-approval`, its command
     * never run, until the user approves it (the app, `switchboard approve NAME`), which removes
     * this key (docs/configuration.md).
     */
    proposedBy: z.string({ error: 'expected a sentence naming who proposed the server' }).min(1, 'expected a sentence naming who proposed the server').optional(),
  })
  .superRefine((s, ctx) => {
    if (s.command === undefined && s.url === undefined) {
      ctx.addIssue({ code: 'custom', message: 'expected either "command" (a local server) or "url" (a remote server)' });
    }
    if (s.command !== undefined && s.url !== undefined) {
      ctx.addIssue({ code: 'custom', message: 'a server has either "command" or "url", not both' });
    }
    if (s.oauth !== undefined && s.url === undefined) {
      ctx.addIssue({ code: 'custom', path: ['oauth'], message: '"oauth" is for remote servers (with "url") only' });
    }
  });
export type ServerConfig = z.infer<typeof ServerConfig>;

/** Code-surface budgets (the code-mode docs' defaults in DEFAULT_BUDGETS). */
export const Budgets = z.looseObject({
  timeoutMs: positiveInt.optional(),
  maxToolCalls: positiveInt.optional(),
  memoryMb: positiveInt.max(4096, 'expected at most 4096').optional(),
  maxSourceBytes: positiveInt.optional(),
  maxResultChars: positiveInt.optional(),
});
export type Budgets = z.infer<typeof Budgets>;

/**
 * One glob of src-shared/glob.ts (`*` spans `/` and `.`). A pattern of another dialect (a
 * leading `!`, an extglob) is refused with a sentence: here it would quietly match something else.
 */
const GlobPattern = z.string({ error: 'expected a glob pattern (a string)' }).superRefine((p, ctx) => {
  const problem = globProblem(p);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

export const ToolFilter = z.looseObject({
  allow: z.array(GlobPattern, { error: 'expected an array of glob patterns' }).optional(),
  deny: z.array(GlobPattern, { error: 'expected an array of glob patterns' }).optional(),
});
export type ToolFilter = z.infer<typeof ToolFilter>;

const onOff = z.boolean({ error: 'expected true or false' }).optional();

/**
 * Code-mode features beyond the docs page, per profile. `ledger` and `nameIndex`
 * only add text (to a failed run, to a large profile's execute description) and are on unless
 * set to false; `results` and `learnedTypes` keep data in the home and are off unless set.
 */
export const CodeModeFeatures = z.looseObject({
  /** A failed run's text lists the calls it made (CODE_MODE_DEFAULTS.ledger). */
  ledger: onOff,
  /** Results over maxResultChars are kept and readable with the `results` global. */
  results: onOff,
  /** Declarations show return types observed in recent results of tools without outputSchema. */
  learnedTypes: onOff,
  /** A large profile's execute description lists its tool names. */
  nameIndex: onOff,
  /** Saved skills are the `skills` global (docs/configuration.md). */
  skills: onOff,
});
export type CodeModeFeatures = z.infer<typeof CodeModeFeatures>;

/** A profile as one client gets it (docs/configuration.md): another surface, or a subset of the profile's tools. */
export const ClientSurface = z.looseObject({
  surface: z.enum(['tools', 'code'], { error: 'expected "tools" or "code"' }).optional(),
  /** Per server, allow/deny globs; a tool must pass these and the profile's own filter. */
  tools: z.record(z.string(), ToolFilter).optional(),
});
export type ClientSurface = z.infer<typeof ClientSurface>;

/**
 * Approval of tool calls made from code (code surface). A call that needs approval pauses its
 * run (and the run's clock) until the client or the app decides, at most `timeoutSec`.
 * Patterns are globs on `server.tool` (the server's own names; `*` spans `/` and `.`, so
 * `evil.*` is every tool of `evil`, `admin/wipe` included); `approve` wins over `never`,
 * `never` wins over the annotations.
 */
export const ApprovalsConfig = z.looseObject({
  /** Ask for tools annotated `destructiveHint: true`. */
  destructive: z.boolean({ error: 'expected true or false' }).optional(),
  /** Ask for every tool not annotated `readOnlyHint: true` (MCP presumes those may write). */
  writes: z.boolean({ error: 'expected true or false' }).optional(),
  approve: z.array(GlobPattern, { error: 'expected an array of glob patterns such as "github.delete_*"' }).optional(),
  never: z.array(GlobPattern, { error: 'expected an array of glob patterns such as "github.delete_*"' }).optional(),
  timeoutSec: positiveInt.max(3600, 'expected at most 3600').optional(),
});
export type ApprovalsConfig = z.infer<typeof ApprovalsConfig>;

/** Seconds a call waits for an approval decision before it is denied. */
export const DEFAULT_APPROVAL_TIMEOUT_SEC = 50;

export const ProfileConfig = z.looseObject({
  servers: z.array(z.string(), { error: 'expected an array of server names' }),
  surface: z.enum(['tools', 'code'], { error: 'expected "tools" or "code"' }).optional(),
  budgets: Budgets.optional(),
  tools: z.record(z.string(), ToolFilter).optional(),
  /** Per server, allow/deny globs over resource URIs (and template URIs); `*` spans `/`. */
  resources: z.record(z.string(), ToolFilter).optional(),
  /** Per server, allow/deny globs over the server's own prompt names. */
  prompts: z.record(z.string(), ToolFilter).optional(),
  namespace: z.boolean({ error: 'expected true or false' }).optional(),
  codeMode: CodeModeFeatures.optional(),
  approvals: ApprovalsConfig.optional(),

  /** Per client id (cursor, windsurf, vscode): what that client gets instead of the profile's surface. */
  clients: z.record(z.string(), ClientSurface, { error: 'expected an object of client ids' }).optional(),
});
export type ProfileConfig = z.infer<typeof ProfileConfig>;

/** App-wide settings (`settings` in config.json); unknown keys are kept, `registry` is checked where it is used (catalog). */
export const AppSettings = z.looseObject({
  /** The desktop app starts, hidden in the tray, when the user logs in. Default true. */
  startAtLogin: z.boolean({ error: 'expected true or false' }).optional(),
  /** The app's welcome was finished or skipped in this home; it is not shown again on its own. */
  welcomeDone: z.boolean({ error: 'expected true or false' }).optional(),
  /** The desktop app checks for updates (every 6 hours at most) and downloads them in the background. Default true. */
  checkForUpdates: z.boolean({ error: 'expected true or false' }).optional(),
  /** Which releases the desktop app updates to: "stable" (default) or "beta" (pre-releases too). */
  updateChannel: z.enum(UPDATE_CHANNELS, { error: 'expected "stable" or "beta"' }).optional(),
});
export type AppSettings = z.infer<typeof AppSettings>;

export const SwitchboardConfig = z
  .looseObject({
    servers: z.record(z.string(), ServerConfig, { error: 'expected an object of servers' }).default({}),
    profiles: z.record(z.string(), ProfileConfig, { error: 'expected an object of profiles' }).default({}),
    settings: AppSettings.optional(),
  });
export type SwitchboardConfig = z.infer<typeof SwitchboardConfig>;

export interface CrossProblem {
  path: (string | number)[];
  message: string;
}

/**
 * A record's own entry: name-keyed tables (servers, profiles, filters) must never answer with
 * what every object inherits (`constructor`, `toString`, …).
 */
export function ownEntry<T>(record: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Checks that span entries (names, profile → server references, namespace). They run on the raw
 * value, even when fields have errors of their own, so that every problem is reported at once
 * (zod skips refinements of an object whose fields failed).
 */
export function crossProblems(raw: unknown): CrossProblem[] {
  const out: CrossProblem[] = [];
  if (!isObject(raw)) return out;
  const servers = isObject(raw.servers) ? raw.servers : {};
  const names = Object.keys(servers);
  names.forEach((name, i) => {
    if (!SERVER_NAME_RE.test(name)) {
      out.push({ path: ['servers', name], message: 'server names use letters, digits, "_", "." and "-" (at most 64, starting with a letter or digit)' });
    }
    // The later of two servers whose tools would share names is the one to rename.
    for (const earlier of names.slice(0, i)) {
      const shared = serverNameClash(earlier, name);
      if (shared === undefined) continue;
      out.push({
        path: ['servers', name],
        message:
          `"${name}" and "${earlier}" would show their tools to clients under the same names (${shared}), so a tool of one could take the place of a tool of the other; ` +
          `rename "${name}" (server names that differ only in ".", "-" and "_", or where one is the other followed by "__", clash)`,
      });
      break;
    }
  });
  const profiles = isObject(raw.profiles) ? raw.profiles : {};
  for (const [pname, p] of Object.entries(profiles)) {
    if (!PROFILE_NAME_RE.test(pname)) {
      out.push({ path: ['profiles', pname], message: 'profile names use letters, digits, "_" and "-" (at most 64, starting with a letter or digit)' });
    }
    if (!isObject(p)) continue;
    const list = Array.isArray(p.servers) ? p.servers : [];
    const seen = new Set<unknown>();
    list.forEach((s, i) => {
      if (typeof s !== 'string') return;
      if (!Object.hasOwn(servers, s)) out.push({ path: ['profiles', pname, 'servers', i], message: `unknown server "${s}"; add it under "servers" first` });
      if (seen.has(s)) out.push({ path: ['profiles', pname, 'servers', i], message: `"${s}" is listed twice` });
      seen.add(s);
    });
    for (const kind of ['tools', 'resources', 'prompts'] as const) {
      const filters = p[kind];
      if (!isObject(filters)) continue;
      for (const s of Object.keys(filters)) {
        if (!list.includes(s)) out.push({ path: ['profiles', pname, kind, s], message: `"${s}" is not one of this profile's servers` });
      }
    }
    if (isObject(p.clients)) {
      for (const [id, c] of Object.entries(p.clients)) {
        if (!isLimitedClient(id)) {
          out.push({ path: ['profiles', pname, 'clients', id], message: `unknown client "${id}"; use one of ${LIMITED_CLIENT_IDS.join(', ')}` });
        }
        if (!isObject(c) || !isObject(c.tools)) continue;
        for (const s of Object.keys(c.tools)) {
          if (!list.includes(s)) out.push({ path: ['profiles', pname, 'clients', id, 'tools', s], message: `"${s}" is not one of this profile's servers` });
        }
      }
    }
    if (p.namespace === false && list.length !== 1) {
      out.push({ path: ['profiles', pname, 'namespace'], message: '"namespace": false needs a profile with exactly one server' });
    }
  }
  return out;
}

export { CODE_MODE_DEFAULTS, resolveCodeModeFeatures, type ResolvedCodeModeFeatures } from './budgets.ts';
export { DEFAULT_BUDGETS, MAX_LOG_BYTES, DEFAULT_CALL_TIMEOUT_SEC, resolveBudgets, type ResolvedBudgets } from './budgets.ts';

export const EMPTY_CONFIG: SwitchboardConfig = { servers: {}, profiles: {} };

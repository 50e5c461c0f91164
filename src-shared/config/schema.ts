// The one schema of config.json (SPEC §3). Pure: no Node, no DOM.
// Objects are loose so that keys we do not know survive a rewrite by the app.
import { z } from 'zod';

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
 * Sign-in settings of a remote server (SPEC §8). Only needed when its authorization server
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

/** Code-surface budgets (seed defaults in DEFAULT_BUDGETS). */
export const Budgets = z.looseObject({
  timeoutMs: positiveInt.optional(),
  maxToolCalls: positiveInt.optional(),
  memoryMb: positiveInt.max(4096, 'expected at most 4096').optional(),
  maxSourceBytes: positiveInt.optional(),
  maxResultChars: positiveInt.optional(),
});
export type Budgets = z.infer<typeof Budgets>;

export const ToolFilter = z.looseObject({
  allow: z.array(z.string(), { error: 'expected an array of glob patterns' }).optional(),
  deny: z.array(z.string(), { error: 'expected an array of glob patterns' }).optional(),
});
export type ToolFilter = z.infer<typeof ToolFilter>;

export const ProfileConfig = z.looseObject({
  servers: z.array(z.string(), { error: 'expected an array of server names' }),
  surface: z.enum(['tools', 'code'], { error: 'expected "tools" or "code"' }).optional(),
  budgets: Budgets.optional(),
  tools: z.record(z.string(), ToolFilter).optional(),
  namespace: z.boolean({ error: 'expected true or false' }).optional(),
});
export type ProfileConfig = z.infer<typeof ProfileConfig>;

export const SwitchboardConfig = z
  .looseObject({
    servers: z.record(z.string(), ServerConfig, { error: 'expected an object of servers' }).default({}),
    profiles: z.record(z.string(), ProfileConfig, { error: 'expected an object of profiles' }).default({}),
  })
  .superRefine((cfg, ctx) => {
    for (const name of Object.keys(cfg.servers)) {
      if (!SERVER_NAME_RE.test(name)) {
        ctx.addIssue({
          code: 'custom',
          path: ['servers', name],
          message: 'server names use letters, digits, "_", "." and "-" (at most 64, starting with a letter or digit)',
        });
      }
    }
    for (const [pname, p] of Object.entries(cfg.profiles)) {
      if (!PROFILE_NAME_RE.test(pname)) {
        ctx.addIssue({
          code: 'custom',
          path: ['profiles', pname],
          message: 'profile names use letters, digits, "_" and "-" (at most 64, starting with a letter or digit)',
        });
      }
      const seen = new Set<string>();
      p.servers.forEach((s, i) => {
        if (!(s in cfg.servers)) {
          ctx.addIssue({
            code: 'custom',
            path: ['profiles', pname, 'servers', i],
            message: `unknown server "${s}"; add it under "servers" first`,
          });
        }
        if (seen.has(s)) {
          ctx.addIssue({ code: 'custom', path: ['profiles', pname, 'servers', i], message: `"${s}" is listed twice` });
        }
        seen.add(s);
      });
      for (const s of Object.keys(p.tools ?? {})) {
        if (!p.servers.includes(s)) {
          ctx.addIssue({
            code: 'custom',
            path: ['profiles', pname, 'tools', s],
            message: `"${s}" is not one of this profile's servers`,
          });
        }
      }
      if (p.namespace === false && p.servers.length !== 1) {
        ctx.addIssue({
          code: 'custom',
          path: ['profiles', pname, 'namespace'],
          message: '"namespace": false needs a profile with exactly one server',
        });
      }
    }
  });
export type SwitchboardConfig = z.infer<typeof SwitchboardConfig>;

export { DEFAULT_BUDGETS, MAX_LOG_BYTES, DEFAULT_CALL_TIMEOUT_SEC, resolveBudgets, type ResolvedBudgets } from './budgets.ts';

export const EMPTY_CONFIG: SwitchboardConfig = { servers: {}, profiles: {} };

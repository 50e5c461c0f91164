// The control API's parameters as runtime schemas: what arrives over the engine socket, under
// /api/ and over Electron IPC is checked here before any handler sees it, so a handler can trust
// the types of src-shared/api.ts. Adding a method: add it to ControlApi and CONTROL_METHODS
// (api.ts) and give it a schema below; the typecheck and tests/shared/api.test.ts fail until
// all three agree.
import { z } from 'zod';
import type { ControlMethod, ControlParams, SocketHello } from './api.ts';
import type { ProfileConfig } from './config/schema.ts';
import { CONNECTOR_ID_RE } from './client-limits.ts';
import { SwitchboardError } from './errors.ts';
import { RUN_ERROR_KINDS, type CallOutcome, type RunErrorKind } from './records.ts';

const none = z.object({});
const text = z.string();
const count = z.number().int().nonnegative();
const runOutcome = z.enum(['ok', ...RUN_ERROR_KINDS] as [string, ...string[]]) as unknown as z.ZodType<'ok' | RunErrorKind>;
const callOutcome = z.enum(['ok', 'error', 'denied', 'timeout', 'cancelled'] satisfies CallOutcome[]);
/** The profile editor's unsaved profile: checked by its handler, which names the invalid setting. */
const draftProfile = z.custom<ProfileConfig>((v) => v !== undefined, { message: 'expected a profile config' });

/** One schema per method, for its params. */
export const CONTROL_PARAMS = {
  'status': none,
  'config.get': z.object({ path: text.optional() }),
  'config.set': z.object({ path: text, value: z.unknown(), ifAbsent: z.boolean().optional() }),
  'config.unset': z.object({ path: text }),
  'config.text': none,
  'servers.restart': z.object({ name: text }),
  'servers.log': z.object({ name: text, lines: count.optional() }),
  'servers.tools': z.object({ name: text, profile: text.optional(), client: text.optional() }),
  'servers.test': z.object({ name: text.optional(), config: z.unknown() }),
  'servers.approve': z.object({ name: text }),
  'servers.signIn': z.object({ name: text }),
  'servers.signOut': z.object({ name: text }),
  'profiles.catalog': z.object({ profile: text.optional(), draft: draftProfile.optional() }),
  'profiles.clientLimits': z.object({ profile: text, client: text }),
  'runs.list': z.object({
    profile: text.optional(),
    client: text.optional(),
    outcome: runOutcome.optional(),
    since: text.optional(),
    until: text.optional(),
    text: text.optional(),
    before: text.optional(),
    limit: count.optional(),
  }),
  'runs.get': z.object({ id: text }),
  'audit.list': z.object({
    profile: text.optional(),
    server: text.optional(),
    client: text.optional(),
    outcome: callOutcome.optional(),
    text: text.optional(),
    since: text.optional(),
    until: text.optional(),
    before: text.optional(),
    limit: count.optional(),
  }),
  'exec': z.object({ profile: text, code: text, client: text.optional() }),
  'approvals.list': none,
  'approvals.decide': z.object({ id: text, approve: z.boolean() }),
  'skills.list': z.object({ profile: text.optional() }),
  // The input schema's own shape is checked by the skill store, which says what to write.
  'skills.save': z.object({
    runId: text,
    name: text,
    input: z.record(z.string(), z.unknown()).optional(),
    description: text.optional(),
    replace: z.boolean().optional(),
  }),
  'skills.remove': z.object({ name: text }),
  'engine.stop': none,
  'clients.list': none,
  'clients.connect': z.object({ client: text, profile: text, force: z.boolean().optional() }),
  'clients.disconnect': z.object({ client: text, profile: text }),
  'clients.undo': z.object({ client: text }),
  'clients.restoreBackup': z.object({ client: text }),
  'clients.fileText': z.object({ client: text }),
  'clients.trustFolder': z.object({ client: text, folder: text }),
  'clients.importPlan': z.object({ client: text }),
  'clients.importApply': z.object({ client: text, replace: z.boolean().optional(), profile: text.optional() }),
  'demo.remove': none,
  'catalog.search': z.object({ text }),
  'catalog.prepare': z.object({ name: text.optional(), version: text.optional(), link: text.optional() }),
  'catalog.install': z.object({ name: text.optional(), version: text.optional(), link: text.optional(), answers: z.record(z.string(), z.string()), approved: z.boolean() }),
} satisfies { [M in ControlMethod]: z.ZodType<ControlParams<M>> };

/**
 * The params of `method` as its handler may trust them; a `bad-request` naming each wrong field
 * otherwise. Absent params count as `{}`; keys the method does not take are dropped.
 */
export function parseControlParams<M extends ControlMethod>(method: M, params: unknown): ControlParams<M> {
  const schema = (CONTROL_PARAMS as Record<string, z.ZodType>)[method];
  if (!schema) throw new SwitchboardError('bad-request', `Unknown API method "${method}".`);
  const r = schema.safeParse(params ?? {}, { reportInput: true });
  if (r.success) return r.data as ControlParams<M>;
  throw new SwitchboardError('bad-request', `Bad parameters for ${method}: ${describeIssues(r.error.issues)}.`);
}

const digest = z.string().regex(/^[0-9a-f]{64}$/).optional();
const BOOT_DIGESTS = z.object({ tools: digest, prompts: digest, resources: digest, resourceTemplates: digest });

/** The first line on the engine socket; `resume` is sent by a shim reconnecting after an engine restart. */
export const SOCKET_HELLO = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('mcp'),
    profile: text,
    v: z.literal(1),
    // `boot`: the shim answered the client's first lists itself (from the last engine's boot
    // answer), with these digests; a list that differs now is announced to the client.
    // `moved`: the last engine handed the home over (take-over); `boot` are the lists the client holds.
    resume: z.object({ initialize: z.unknown(), boot: BOOT_DIGESTS.optional().catch(undefined), moved: z.boolean().optional().catch(undefined) }).optional(),
    // A client id that is none (hand-edited entry) is dropped, not a refused connection.
    client: z.string().regex(CONNECTOR_ID_RE).optional().catch(undefined),
  }),
  z.object({ kind: z.literal('control'), v: z.literal(1) }),
  z.object({
    kind: z.literal('takeover'),
    v: z.literal(1),
    version: text,
    pid: z.number().int().positive(),
    socket: text,
    httpPort: z.number().int().min(1).max(65535).nullable(),
  }),
]) satisfies z.ZodType<SocketHello>;

/** The hello, or undefined when the line is not one. */
export function parseSocketHello(value: unknown): SocketHello | undefined {
  const r = SOCKET_HELLO.safeParse(value);
  return r.success ? r.data : undefined;
}

function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .slice(0, 3)
    .map((i) => {
      const missing = i.code === 'invalid_type' && i.input === undefined;
      if (!i.path.length) return `the parameters must be an object of named values (${i.message})`;
      return `"${i.path.map(String).join('.')}" ${missing ? 'is missing' : `is wrong (${i.message})`}`;
    })
    .join('; ');
}

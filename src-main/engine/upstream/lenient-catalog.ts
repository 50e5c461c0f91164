// Real servers are sloppy about their tool definitions: `@modelcontextprotocol/server-gitlab`
// 2025.4.25 lists every input schema as `{ "$schema": "…" }` with no `"type": "object"`. The
// SDK's client rejects the whole `tools/list` for one such tool, so the server could never be
// used. Here each tools/list answer is mended before the SDK reads it: what can be served is
// normalised to what clients accept (an object input schema, valid optional fields), what cannot
// (a tool with no name, a name listed twice) is left out, and one log line says what was changed.
import type { Transport } from '@modelcontextprotocol/client';
import { ToolSchema } from '@modelcontextprotocol/core';
import { valueDeeperThan } from '../../../src-shared/codemode/json-depth.ts';

type Json = Record<string, unknown>;

/** Tools named in the log line before "and N more". */
const NAMED_IN_NOTE = 5;
/**
 * Deepest schema served. Validating, pinning, declaring and relaying a schema all walk it
 * recursively: one nested thousands of levels deep overflowed the engine's stack at every start
 * (a restart loop). Real schemas nest a few dozen levels at most.
 */
export const MAX_SCHEMA_DEPTH = 64;
/** Rounds of "drop the field the schema refused" before a tool counts as unservable. */
const MAX_REPAIR_ROUNDS = 8;

export interface MendedTool {
  tool: Json;
  fixes: string[];
}

const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

/** One tool made servable, or the reason it cannot be served. */
export function mendTool(raw: unknown): MendedTool | { dropped: string } {
  if (!isObject(raw)) return { dropped: 'an entry that is not a tool definition' };
  if (typeof raw.name !== 'string' || raw.name === '') return { dropped: 'a tool without a name' };
  const tool: Json = { ...raw };
  const fixes: string[] = [];
  for (const key of ['inputSchema', 'outputSchema', 'annotations', '_meta'] as const) {
    if (key in tool && valueDeeperThan(tool[key], MAX_SCHEMA_DEPTH)) {
      if (key === 'inputSchema') tool.inputSchema = { type: 'object' };
      else delete tool[key];
      fixes.push(`its "${key}" nested more than ${MAX_SCHEMA_DEPTH} levels deep and was ${key === 'inputSchema' ? 'replaced by an empty object schema' : 'left out'}`);
    }
  }
  tool.inputSchema = mendInputSchema(tool.inputSchema, fixes);
  for (let round = 0; round < MAX_REPAIR_ROUNDS; round++) {
    const parsed = ToolSchema.safeParse(tool);
    if (parsed.success) return { tool, fixes };
    for (const issue of parsed.error.issues) {
      const [top, sub] = issue.path;
      if (top === 'name') return { dropped: `${raw.name}: its name is not valid` };
      if (top === 'inputSchema') {
        const input = tool.inputSchema as Json;
        if (typeof sub === 'string' && sub !== 'type' && sub in input) {
          delete input[sub];
          fixes.push(`its input schema's "${sub}" was not valid and was left out`);
        } else {
          tool.inputSchema = { type: 'object' };
          fixes.push('its input schema was replaced by an empty object schema');
        }
      } else if (typeof top === 'string' && top in tool) {
        delete tool[top];
        fixes.push(`its "${top}" was not valid and was left out`);
      }
    }
  }
  return { dropped: `${raw.name}: its definition could not be mended` };
}

function mendInputSchema(schema: unknown, fixes: string[]): Json {
  if (!isObject(schema)) {
    fixes.push('it had no input schema (an empty object schema was used)');
    return { type: 'object' };
  }
  if (schema.type === 'object') return schema;
  if (schema.type === undefined) {
    fixes.push('its input schema had no "type" ("object" was set)');
    return { ...schema, type: 'object' };
  }
  // Arguments are always an object in MCP; a union naming object can only mean that.
  if (Array.isArray(schema.type) && schema.type.includes('object')) {
    fixes.push(`its input schema's type ${JSON.stringify(schema.type)} became "object"`);
    return { ...schema, type: 'object' };
  }
  fixes.push(`its input schema was of type ${JSON.stringify(schema.type)}, not an object (an empty object schema was used)`);
  return { type: 'object' };
}

/** Mends one tools/list page; `note` is the one sentence saying what changed (undefined when nothing did). */
export function mendToolList(tools: unknown[]): { tools: Json[]; note?: string } {
  const out: Json[] = [];
  const seen = new Set<string>();
  const mended: string[] = [];
  const dropped: string[] = [];
  for (const raw of tools) {
    const r = mendTool(raw);
    if ('dropped' in r) {
      dropped.push(r.dropped);
      continue;
    }
    const name = r.tool.name as string;
    if (seen.has(name)) {
      dropped.push(`${name}: listed twice (the first is kept)`);
      continue;
    }
    seen.add(name);
    out.push(r.tool);
    if (r.fixes.length > 0) mended.push(`${name}: ${[...new Set(r.fixes)].join('; ')}`);
  }
  if (mended.length === 0 && dropped.length === 0) return { tools: out };
  const parts: string[] = [];
  if (mended.length > 0) parts.push(`mended ${mended.length} of ${tools.length} tool definitions so clients accept them — ${listed(mended)}`);
  if (dropped.length > 0) parts.push(`left out ${dropped.length} that cannot be served — ${listed(dropped)}`);
  return { tools: out, note: `tools/list: ${parts.join('; ')}` };
}

function listed(items: string[]): string {
  const shown = items.slice(0, NAMED_IN_NOTE).join(' | ');
  return items.length > NAMED_IN_NOTE ? `${shown} | and ${items.length - NAMED_IN_NOTE} more` : shown;
}

/**
 * Mends every tools/list answer on `transport` before the SDK's client reads it. Call once the
 * client is connected (its `onmessage` is set) and before the first tools/list: `send` is wrapped
 * to know which answers are tools/list ones.
 */
export function mendToolLists(transport: Transport, note: (line: string) => void): void {
  const inner = transport.onmessage;
  if (!inner) return;
  const pending = new Set<string | number>();
  const send = transport.send.bind(transport);
  transport.send = ((message: unknown, options?: unknown) => {
    const m = message as { method?: unknown; id?: unknown };
    if (m.method === 'tools/list' && (typeof m.id === 'string' || typeof m.id === 'number')) pending.add(m.id);
    return (send as (m: unknown, o?: unknown) => Promise<void>)(message, options);
  }) as Transport['send'];
  transport.onmessage = ((message: unknown, extra?: unknown) => {
    const m = message as { id?: unknown; result?: Json } | undefined;
    if (m && (typeof m.id === 'string' || typeof m.id === 'number') && pending.delete(m.id) && Array.isArray(m.result?.tools)) {
      const fixed = mendToolList(m.result.tools as unknown[]);
      if (fixed.note) {
        note(fixed.note);
        message = { ...m, result: { ...m.result, tools: fixed.tools } };
      }
    }
    (inner as (m: unknown, e?: unknown) => void)(message, extra);
  }) as Transport['onmessage'];
}

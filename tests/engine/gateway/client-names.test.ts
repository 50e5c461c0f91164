// Clients named as people know them (issues 24 and 21), through the real shim and a real engine:
// a client whose clientInfo is "gemini-cli-mcp-client" shows as "Gemini CLI" with clientId
// "gemini-cli" in `status --json`, `status`, runs and the audit log (the raw name kept in each
// record), a filter by "Gemini CLI" finds its records, a client with a vague clientInfo is named
// by the connector of its entry (`--client`), and the approval question names the app.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ElicitRequestSchema, type CallToolResult, type ElicitRequest } from '@modelcontextprotocol/sdk/types.js';
import type { StatusReport } from '../../../src-shared/api.ts';
import type { AuditEntry, RunRecord } from '../../../src-shared/records.ts';
import { cleanupHomes, cli, fixtureServer, makeHome, shimClient, waitFor } from '../../helpers/home.ts';

afterAll(cleanupHomes);

let home: string;
let gemini: Client;
let vague: Client;
let other: Client;
const asked: ElicitRequest[] = [];
const runIds: Record<string, string> = {};

const status = (): StatusReport => JSON.parse(cli(home, ['status', '--json']).stdout) as StatusReport;

async function run(c: Client, code: string): Promise<{ text: string; runId: string }> {
  const raw = (await c.callTool({ name: 'execute', arguments: { code } }, undefined, { timeout: 60_000 })) as CallToolResult;
  return { text: (raw.content[0] as { text: string }).text, runId: String(raw._meta?.['switchboard/runId']) };
}

function json<T>(args: string[]): T {
  const r = cli(home, [...args, '--json']);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as T;
}

beforeAll(async () => {
  home = makeHome({
    servers: { ann: fixtureServer('annotated.mjs') },
    profiles: { named: { servers: ['ann'], surface: 'code', approvals: { destructive: true, timeoutSec: 20 } } },
  });
  gemini = await shimClient(home, 'named', { name: 'gemini-cli-mcp-client', capabilities: { elicitation: {} } });
  gemini.setRequestHandler(ElicitRequestSchema, async (req) => {
    asked.push(req);
    return { action: 'accept', content: { decision: 'Allow' } };
  });
  vague = await shimClient(home, 'named', { name: 'my-agent', shimArgs: ['--client', 'cursor'] });
  other = await shimClient(home, 'named', { name: 'some-other-client' });
  await waitFor(async () => (await run(other, 'async () => typeof ann.delete_item')).text.includes('function') || undefined, 30_000, 'server ready');
  runIds.gemini = (await run(gemini, `async () => await ann.delete_item({ id: 'g1' })`)).runId;
  runIds.vague = (await run(vague, 'async () => (await ann.deleted()).deleted')).runId;
  runIds.other = (await run(other, 'async () => (await ann.deleted()).deleted')).runId;
}, 90_000);

afterAll(async () => {
  await gemini?.close();
  await vague?.close();
  await other?.close();
});

describe('clients named as people know them', () => {
  it('status --json gives each connected client its clientId and displayName, keeping the raw name', () => {
    const clients = status().clients;
    expect(clients.find((c) => c.name === 'gemini-cli-mcp-client')).toMatchObject({ clientId: 'gemini-cli', displayName: 'Gemini CLI' });
    expect(clients.find((c) => c.name === 'my-agent')).toMatchObject({ clientId: 'cursor', displayName: 'Cursor', connector: 'cursor' });
    const unknown = clients.find((c) => c.name === 'some-other-client')!;
    expect(unknown.clientId).toBeUndefined();
    expect(unknown.displayName).toBe('some-other-client');
    const text = cli(home, ['status']).stdout;
    expect(text).toMatch(/^ {2}Gemini CLI +named /m);
    expect(text).toMatch(/^ {2}Cursor +named /m);
    expect(text).not.toContain('gemini-cli-mcp-client');
  });

  it('runs keep the raw clientInfo and gain the clientId; the listing names the app; a filter by its name finds them', () => {
    const runs = json<RunRecord[]>(['runs']);
    expect(runs.find((r) => r.id === runIds.gemini)).toMatchObject({ client: 'gemini-cli-mcp-client', clientId: 'gemini-cli' });
    expect(runs.find((r) => r.id === runIds.vague)).toMatchObject({ client: 'my-agent', clientId: 'cursor' });
    expect(runs.find((r) => r.id === runIds.other)!.clientId).toBeUndefined();
    for (const filter of ['Gemini CLI', 'gemini cli', 'gemini-cli', 'gemini-cli-mcp-client']) {
      const found = json<RunRecord[]>(['runs', '--client', filter]).map((r) => r.id);
      expect(found, filter).toEqual([runIds.gemini]);
    }
    expect(json<RunRecord[]>(['runs', '--client', 'Cursor']).map((r) => r.id)).toEqual([runIds.vague]);
    expect(json<RunRecord[]>(['runs', '--client', 'some-other-client']).map((r) => r.id)).toContain(runIds.other);
    const listing = cli(home, ['runs']).stdout;
    expect(listing).toMatch(new RegExp(`^${runIds.gemini} .* named · Gemini CLI$`, 'm'));
    expect(cli(home, ['runs', 'show', runIds.gemini!]).stdout).toContain(' · named · Gemini CLI · ');
  });

  it('audit entries keep the raw clientInfo and gain the clientId; the listing and the filter name the app', () => {
    const entries = json<AuditEntry[]>(['audit', '--client', 'Gemini CLI']);
    expect(entries.length).toBeGreaterThan(0);
    for (const e of entries) expect(e).toMatchObject({ client: 'gemini-cli-mcp-client', clientId: 'gemini-cli' });
    expect(entries.some((e) => e.runId === runIds.gemini && e.tool === 'delete_item')).toBe(true);
    const cursor = json<AuditEntry[]>(['audit', '--client', 'cursor']);
    expect(cursor.map((e) => e.runId)).toContain(runIds.vague);
    expect(cursor.every((e) => e.client === 'my-agent')).toBe(true);
    expect(cli(home, ['audit', '--client', 'gemini-cli']).stdout).toMatch(/ann\.delete_item .* named · Gemini CLI · run /);
  });

  it('the approval question names the app as people know it, not its clientInfo', () => {
    expect(asked).toHaveLength(1);
    expect(asked[0]!.params.message).toMatch(/^Gemini CLI wants to use “Delete an item” \(ann\.delete_item\)/);
    expect(asked[0]!.params.message).not.toContain('gemini-cli-mcp-client');
  });
});

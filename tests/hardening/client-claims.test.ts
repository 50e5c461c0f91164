// What a client says of itself (issue 20, finding 6): its clientInfo name and version are the
// client's own claim, of any size and with any characters. A real `switchboard serve`, raw
// 2026-07-28 HTTP requests and a real 2025 client through the shim: what `status`, the audit
// and the recent-clients list keep of a 1 MB name is bounded and clean.
import { afterAll, beforeAll, describe, expect } from 'vitest';
import type { StatusReport } from '../../src-shared/api.ts';
import type { AuditEntry } from '../../src-shared/records.ts';
import { MAX_CLIENT_NAME_CHARS } from '../../src-shared/terminal-text.ts';
import { cleanupHomes, cli, fixtureServer, makeHome, shimClient, waitFor } from '../helpers/home.ts';
import { modernPost, serve, type Served } from '../helpers/serve.ts';
import { hardeningCase } from './hardening-case.ts';

afterAll(cleanupHomes);

let home: string;
let served: Served;

const HUGE = 'evil\n\u202e\u0007' + 'N'.repeat(1024 * 1024);
// Nothing a terminal or a table would act on: controls, bidi overrides, line breaks.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2066-\u2069]/;

beforeAll(async () => {
  home = makeHome({ servers: { basic: fixtureServer('basic.mjs') }, profiles: { p: { servers: ['basic'] } } });
  served = await serve(home);
}, 60_000);

afterAll(() => served?.stop());

async function api<T>(method: string, params: unknown = {}): Promise<T> {
  const r = await fetch(`${served.url}/api/${method}`, { method: 'POST', headers: { authorization: `Bearer ${served.token}`, 'content-type': 'application/json' }, body: JSON.stringify(params) });
  const body = (await r.json()) as { result?: T } & T;
  return (body.result ?? body) as T;
}

describe('a client-declared name of 1 MB', () => {
  hardeningCase('attack', 'a 1 MB _meta.clientInfo.name over HTTP 2026-07-28 is cut to 100 characters and cleaned in status, the audit and the recent clients', async (tally) => {
    const call = await waitFor(async () => {
      const r = await modernPost(served, 'p', 'tools/call', { name: 'basic__echo', arguments: { text: 'hi' } }, { name: 'basic__echo', clientName: HUGE });
      return r.status === 200 && JSON.stringify(r.json()).includes('hi') ? r : undefined;
    }, 30_000, 'the call to answer');
    expect(call.status).toBe(200);

    await tally.attempt('the audit entry names the client in at most 100 characters, without controls', async () => {
      const entry = await waitFor(async () => (await api<{ entries: AuditEntry[] }>('audit.list', { limit: 5 })).entries.find((e) => e.tool === 'echo'), 10_000, 'the audit entry');
      expect(Array.from(entry.client).length).toBeLessThanOrEqual(MAX_CLIENT_NAME_CHARS);
      expect(entry.client).toMatch(/^evil N+…$/);
      expect(entry.client).not.toMatch(UNSAFE);
    });
    await tally.attempt('status --json lists the recent client under the bounded name', async () => {
      const st = await api<StatusReport>('status');
      const recent = st.clients.filter((c) => c.stateless);
      expect(recent).toHaveLength(1);
      expect(Array.from(recent[0]!.name).length).toBeLessThanOrEqual(MAX_CLIENT_NAME_CHARS);
      expect(recent[0]!.id.length).toBeLessThan(200);
    });
    await tally.attempt('`switchboard status` prints no line longer than 400 characters', async () => {
      const out = cli(home, ['status']).stdout;
      expect(out).toContain('evil N');
      expect(Math.max(...out.split('\n').map((l) => l.length))).toBeLessThan(400);
    });
  }, 90_000);

  hardeningCase('attack', 'a 2025 client named with line breaks, bidi overrides and 100,000 characters is kept bounded and clean', async (tally) => {
    const c = await shimClient(home, 'p', { name: 'fake\r\nClients:\u202e ' + 'x'.repeat(100_000) });
    try {
      await c.callTool({ name: 'basic__echo', arguments: { text: 'from 2025' } });
      await tally.attempt('the session in status', async () => {
        const st = await api<StatusReport>('status');
        const mine = st.clients.find((s) => !s.stateless && s.name.startsWith('fake'));
        expect(mine?.name).toMatch(/^fake Clients: x+…$/);
        expect(Array.from(mine!.name).length).toBeLessThanOrEqual(MAX_CLIENT_NAME_CHARS);
      });
      await tally.attempt('its audit entry', async () => {
        const entry = await waitFor(async () => (await api<{ entries: AuditEntry[] }>('audit.list', { limit: 10 })).entries.find((e) => e.client.startsWith('fake')), 10_000, 'the entry');
        expect(entry.client).not.toMatch(UNSAFE);
        expect(Array.from(entry.client).length).toBeLessThanOrEqual(MAX_CLIENT_NAME_CHARS);
      });
    } finally {
      await c.close();
    }
  }, 60_000);
});

// Every page of the app with something on it, for the checks that go over all of them (the
// plain-words scan, the accessibility pass): a real `switchboard serve` whose user has Claude
// Desktop installed, a tools profile and a code profile with approvals, a filesystem server (its
// normal "No valid root directories" line in the log), a run of code, and so audit entries; and
// last, a call from code waiting for approval (its card is on every page while it waits).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { BASIC, FIXTURES, NODE, serve, until, type Served } from './harness.ts';
import { PAGES } from '../../src-renderer/lib/pages.ts';
import type { ExecResult, PendingApproval } from '../../src-shared/api.ts';

export const FILESYSTEM = path.join(path.dirname(NODE), 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');

export interface EveryPage {
  s: Served;
  runId: string;
  /** Each page as a person reaches it, then its state: `name` for messages. */
  states: { name: string; open(page: Page): Promise<void> }[];
  dispose(): Promise<void>;
}

export async function serveEveryPage(): Promise<EveryPage> {
  const user = mkdtempSync(path.join(os.tmpdir(), 'sb-ui-user-'));
  const claude = path.join(user, '.config', 'Claude', 'claude_desktop_config.json');
  mkdirSync(path.dirname(claude), { recursive: true });
  writeFileSync(claude, `${JSON.stringify({ mcpServers: { weather: { command: 'uvx', args: ['weather-mcp'] } } }, null, 2)}\n`);
  const files = path.join(user, 'files');
  mkdirSync(files);
  const s = await serve(
    {
      servers: { basic: { command: NODE, args: [BASIC] }, files: { command: NODE, args: [FILESYSTEM, files] }, ann: { command: NODE, args: [path.join(FIXTURES, 'annotated.mjs')] } },
      profiles: {
        everyday: { servers: ['basic', 'files'] },
        auto: { servers: ['basic', 'ann'], surface: 'code', approvals: { destructive: true } },
      },
    },
    { env: { HOME: user, XDG_CONFIG_HOME: path.join(user, '.config') } },
  );
  const r = await until(async () => {
    const x = (await s.api('exec', { profile: 'auto', client: 'Claude Desktop', code: 'async () => await basic.echo({ text: "hello" })' })) as ExecResult;
    return x.text.includes('hello') ? x : undefined;
  }, 'a run of code');
  // The address with the token signs the page in; the page then moves by its hash, as a link would.
  const go = (hash: string) => async (page: Page) => {
    await page.goto(s.url);
    await page.evaluate(`location.hash = ${JSON.stringify(`#/${hash}`)}`);
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await page.getByText('Engine running').waitFor();
  };
  const states: EveryPage['states'] = PAGES.map((p) => ({
    name: p.label,
    open: async (page: Page) => {
      await go(p.id)(page);
      // Each page's content, not its loading line.
      if (p.id === 'servers') await page.locator('[data-server="files"] [data-testid="state"]', { hasText: 'ready' }).waitFor({ timeout: 20_000 });
      if (p.id === 'runs') await page.getByRole('link', { name: /hello|echo/ }).first().waitFor().catch(() => {});
      if (p.id === 'connect') await page.locator('[data-client="claude-desktop"]').waitFor({ timeout: 15_000 });
      await page.waitForLoadState('networkidle');
    },
  }));
  states.push(
    {
      name: 'Servers, a form to add one',
      open: async (page) => {
        await states[0]!.open(page);
        await page.getByRole('button', { name: 'Add server' }).click();
      },
    },
    {
      name: 'Servers, the log of the filesystem server',
      open: async (page) => {
        await states[0]!.open(page);
        const row = page.locator('[data-server="files"]');
        await row.getByRole('button', { name: 'Log' }).click();
        await row.getByText('No valid root directories provided by client').waitFor({ timeout: 15_000 });
      },
    },
    {
      name: 'Profiles, the code profile open',
      open: async (page) => {
        await go('profiles')(page);
        await page.locator('[data-profile="auto"]').getByRole('button', { name: 'auto' }).click();
        await page.getByRole('button', { name: 'Save profile' }).waitFor();
        await page.waitForLoadState('networkidle');
      },
    },
    {
      name: 'Runs, one run open',
      open: async (page) => {
        await go(`runs/${r.runId}`)(page);
        await page.getByRole('article').first().waitFor();
      },
    },
    {
      name: 'Runs, a call waiting for approval',
      open: async (page) => {
        const waiting = async () => ((await s.api('approvals.list', {})) as { pending: PendingApproval[] }).pending;
        if (!(await waiting()).length) {
          waits.push(s.api('exec', { profile: 'auto', client: 'Claude Desktop', code: `async () => { try { return await ann.delete_item({ id: 'a-1' }); } catch (e) { return e.message; } }` }));
          await until(async () => ((await waiting()).length ? true : undefined), 'a call waiting for approval');
        }
        await go('runs')(page);
        await page.locator('[data-approval]').waitFor({ timeout: 15_000 });
      },
    },
  );
  const waits: Promise<unknown>[] = [];
  return {
    s,
    runId: r.runId,
    states,
    async dispose() {
      for (const p of ((await s.api('approvals.list', {})) as { pending: PendingApproval[] }).pending) await s.api('approvals.decide', { id: p.id, approve: false }).catch(() => {});
      await Promise.allSettled(waits);
      await s.dispose();
      rmSync(user, { recursive: true, force: true });
    },
  };
}

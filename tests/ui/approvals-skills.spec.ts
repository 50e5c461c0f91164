// End-to-end in real Chromium against a real `switchboard serve`: the approval card (allow and
// refuse a destructive call from code while the run waits, in words a person can answer) and "Save as skill" on the Runs page.
// Run: npm run build:renderer && node --import tsx --test tests/ui/approvals-skills.spec.ts
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import path from 'node:path';
import { mkdirSync, readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { FIXTURES, NODE, openBrowser, screenshot, serve, SHOTS, untilCodeSees, type Browser, type Served } from './harness.ts';
import type { ExecResult, SkillInfo } from '../../src-shared/api.ts';

let s: Served;
let b: Browser;
let page: Page;

before(async () => {
  mkdirSync(SHOTS, { recursive: true });
  s = await serve({
    servers: { ann: { command: NODE, args: [path.join(FIXTURES, 'annotated.mjs')] } },
    profiles: { guarded: { servers: ['ann'], surface: 'code', approvals: { destructive: true, timeoutSec: 60 }, codeMode: { skills: true } } },
  });
  b = await openBrowser();
  page = b.page;
  await page.goto(s.url);
  await untilCodeSees(s, 'guarded', 'ann.delete_item');
}, { timeout: 90_000 });

after(async () => {
  await b?.dispose();
  await s?.dispose();
});

describe('approvals and skills in the app', () => {
  it('shows a card a person can answer: which app asks, the tool by its title and what it does, the arguments as lines, what No means, no ids; Allow lets the call proceed', { timeout: 60_000 }, async () => {
    // Claude Desktop names itself "claude-ai" in clientInfo: the card names it as people know it.
    const run = s.api('exec', { profile: 'guarded', client: 'claude-ai', code: `async () => await ann.delete_item({ id: 'ui-1', why: 'old draft' })` }) as Promise<ExecResult>;
    const card = page.locator('[data-approval]');
    await card.waitFor({ timeout: 15_000 });
    await card.getByRole('heading', { name: 'Claude Desktop asks to use Delete an item' }).waitFor();
    assert.deepEqual(await card.getByRole('list', { name: 'With' }).getByRole('listitem').allInnerTexts(), ['id: ui-1', 'why: old draft']);
    const text = await card.innerText();
    assert.match(text, /Deletes an item for good\./);
    assert.match(text, /Don't allow: the tool will not run; the code gets an error it can handle\./);
    const pending = (await s.api('approvals.list', {})) as { pending: { id: string; runId: string }[] };
    for (const id of [pending.pending[0]!.id, pending.pending[0]!.runId]) assert.ok(!text.includes(id), `the card shows the id ${id}:\n${text}`);
    assert.ok(!text.includes('{'), text);
    assert.ok(!text.includes('claude-ai'), text);
    await screenshot(page, 'approval-card');
    // The run and the tool's code name are one click away, under Details.
    await card.getByText('Details').click();
    await card.getByRole('link', { name: 'See the run' }).waitFor();
    await card.getByRole('button', { name: 'Allow', exact: true }).click();
    const r = await run;
    assert.equal(r.isError, false, r.text);
    assert.match(r.text, /deleted ui-1/);
    await card.waitFor({ state: 'detached', timeout: 10_000 });
  });

  it("Don't allow makes the call throw \"denied: …\" in the code", { timeout: 60_000 }, async () => {
    const run = s.api('exec', { profile: 'guarded', code: `async () => { try { await ann.delete_item({ id: 'ui-2' }); } catch (e) { return e.message; } }` }) as Promise<ExecResult>;
    const card = page.locator('[data-approval]');
    await card.waitFor({ timeout: 15_000 });
    await card.getByRole('button', { name: "Don't allow" }).click();
    const r = await run;
    assert.match(r.text, /denied: ann\.delete_item needs approval and it was denied in Switchboard/);
  });

  it('the profile editor sets approvals and skills, and refuses a bad approval timeout', { timeout: 60_000 }, async () => {
    await page.goto(`${s.url.split('#')[0]}#/profiles`);
    await page.locator('[data-profile="guarded"]').getByRole('button', { name: 'guarded' }).click();
    assert.equal(await page.locator('#pf-ap-destructive').isChecked(), true);
    assert.equal(await page.locator('input[name="codeMode.skills"]').isChecked(), true);
    await page.locator('#pf-ap-timeout').fill('0');
    const before = s.configBytes();
    await page.getByRole('button', { name: 'Save profile' }).click();
    await page.getByRole('alert').getByText(/whole seconds, from 1 to 3600/).waitFor({ timeout: 10_000 });
    assert.equal(s.configBytes(), before, 'config.json must not change on bad input');
    await page.locator('#pf-ap-timeout').fill('60');
    await page.locator('#pf-ap-approve').fill('ann.touch');
    await page.getByRole('button', { name: 'Save profile' }).click();
    await page.getByRole('status').getByText('Saved “guarded”.').waitFor({ timeout: 10_000 });
    const cfg = JSON.parse(readFileSync(s.configFile, 'utf8')) as { profiles: { guarded: Record<string, unknown> } };
    assert.deepEqual(cfg.profiles.guarded.approvals, { destructive: true, timeoutSec: 60, approve: ['ann.touch'] });
    assert.equal((cfg.profiles.guarded.codeMode as { skills?: boolean }).skills, true);
  });

  it('saves a run as a skill from the Runs page', { timeout: 60_000 }, async () => {
    const src = (await s.api('exec', { profile: 'guarded', code: `async (input = { id: 'x' }) => (await ann.deleted()).deleted.includes(input.id)` })) as ExecResult;
    assert.equal(src.isError, false, src.text);
    await page.goto(`${s.url.split('#')[0]}#/runs/${src.runId}`);
    await page.getByRole('button', { name: 'Save as skill' }).click();
    await page.locator('#skill-name').fill('was_deleted');
    await page.locator('#skill-description').fill('Whether an item was deleted.');
    await page.locator('#skill-input').fill('{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}');
    await page.getByRole('button', { name: 'Save skill' }).click();
    await page.getByRole('status').getByText('skills.was_deleted(input)').waitFor({ timeout: 10_000 });
    await screenshot(page, 'runs-save-skill');
    const { skills } = (await s.api('skills.list', { profile: 'guarded' })) as { skills: SkillInfo[] };
    assert.deepEqual(skills.map((k) => [k.name, k.available, k.tools]), [['was_deleted', true, ['ann.deleted']]]);
    const called = (await s.api('exec', { profile: 'guarded', code: `async () => await skills.was_deleted({ id: 'ui-1' })` })) as ExecResult;
    assert.match(called.text, /Result:\ntrue/);
    // A bad name is refused inline.
    await page.getByRole('button', { name: 'Save as skill' }).click();
    await page.locator('#skill-name').fill('not a name');
    await page.getByRole('button', { name: 'Save skill' }).click();
    await page.getByRole('alert').getByText(/cannot name a skill/).waitFor({ timeout: 10_000 });
  });
});

// Picking the tools one client gets, in real Chromium, against a profile of the 117 GitHub tools.
// The client is a real MCP client through the real shim whose clientInfo names no known client,
// started as `connect cursor` writes its entry (`--client cursor`): the Profiles page knows it
// as Cursor from its connector, warns that 117 tools are past Cursor's 40, and its picker writes
// profiles.big.clients.cursor.tools; the client's tools/list becomes exactly the picked tools,
// the picker opens again on them, and "all tools" gives the client the whole profile back.
// Run: npx vite build && node --import tsx --test tests/ui/client-subset.spec.ts
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Page } from 'playwright-core';
import { FIXTURES, NODE, ROOT, openBrowser, screenshot, serve, type Browser, type Served, until } from './harness.ts';

let s: Served;
let b: Browser;
let page: Page;
let agent: Client;

const toolNames = async () => (await agent.listTools()).tools.map((t) => t.name).sort();

before(async () => {
  s = await serve({
    servers: { github: { command: NODE, args: [path.join(FIXTURES, 'catalog.mjs')], env: { CATALOG_FILE: path.join(ROOT, 'tests/fixtures/catalogs/github.json') } } },
    profiles: { big: { servers: ['github'] } },
  });
  agent = new Client({ name: 'my-agent', version: '1.0.0' });
  await agent.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [path.join(ROOT, 'bin/switchboard.mjs'), 'shim', '--profile', 'big', '--home', s.home, '--client', 'cursor'],
      stderr: 'ignore',
    }),
  );
  await until(async () => ((await toolNames()).length === 117 ? true : undefined), '117 tools');
  b = await openBrowser();
  page = b.page;
  await page.goto(s.url);
}, { timeout: 90_000 });

after(async () => {
  await agent?.close();
  await b?.dispose();
  await s?.dispose();
});

describe('picking the tools one client gets', () => {
  it('knows the client from its connector and says what it gets', { timeout: 60_000 }, async () => {
    await page.getByRole('navigation').getByRole('link', { name: /^Profiles/ }).click();
    const line = page.locator('[data-profile-clients="big"] [data-client-surface="cursor"]');
    await line.getByText('Cursor (known from its connector; takes 40 tools, names up to 60 characters) gets 117 tools').waitFor({ timeout: 20_000 });
    await page.locator('[data-profile-warnings="big"]').getByText('Cursor uses at most 40 tools; profile "big" gives it 117').waitFor();
  });

  it('writes the picked tools as that client\'s subset, and the client gets exactly those', { timeout: 90_000 }, async () => {
    const warning = page.locator('[data-profile-warnings="big"]');
    await warning.getByRole('button', { name: 'Pick tools for Cursor' }).click();
    const picker = page.getByTestId('client-tools-picker');
    const count = picker.getByTestId('picked-count');
    await count.getByText('117 picked; Cursor takes 40').waitFor({ timeout: 20_000 });
    await picker.getByRole('button', { name: 'Clear shown' }).click();
    await count.getByText('0 picked').waitFor();
    await picker.getByLabel('Filter').fill('pull_request');
    await picker.getByRole('button', { name: 'Select shown' }).click();
    await count.getByText('19 picked').waitFor();
    await picker.getByRole('checkbox', { name: /github__merge_pull_request\b/ }).uncheck();
    await count.getByText('18 picked; Cursor takes 40').waitFor();
    // A name Cursor would refuse is marked where it is picked: Cursor gets a shortened one.
    await picker.getByRole('listitem').filter({ hasText: 'github__add_pull_request_review_comment_reaction' }).getByText('name shortened for Cursor').waitFor();
    await screenshot(page, 'client-subset-picker');
    await picker.getByRole('button', { name: 'Save subset' }).click();
    await page.getByText('Cursor now gets 18 of “big”’s tools.').waitFor({ timeout: 15_000 });

    const cfg = JSON.parse(s.configBytes()) as { profiles: { big: { clients?: { cursor?: { tools?: { github?: { allow?: string[] } } } }; tools?: unknown } } };
    const allow = cfg.profiles.big.clients?.cursor?.tools?.github?.allow ?? [];
    assert.equal(allow.length, 18);
    assert.ok(allow.includes('create_pull_request') && !allow.includes('merge_pull_request'));
    assert.equal(cfg.profiles.big.tools, undefined, 'the profile itself keeps all its tools');
    const names = await until(async () => {
      const n = await toolNames();
      return n.length === 18 ? n : undefined;
    }, 'the subset for the client');
    // Each picked tool, under its own name where it fits Cursor, else under its stable short one.
    const long = allow.filter((t) => `switchboard-big_github__${t}`.length > 60);
    assert.deepEqual(long, ['add_pull_request_review_comment_reaction']);
    assert.deepEqual(names.filter((n) => allow.includes(n.slice('github__'.length))), allow.filter((t) => !long.includes(t)).map((t) => `github__${t}`).sort());
    const short = names.filter((n) => !allow.includes(n.slice('github__'.length)));
    assert.equal(short.length, 1);
    assert.match(short[0]!, /^github__add_pull_request_review_com\w*_[0-9a-f]{8}$/);
    assert.ok(`switchboard-big_${short[0]}`.length <= 60, short[0]);
    await page.locator('[data-profile-clients="big"] [data-client-surface="cursor"]').getByText(/gets 18 tools, a picked subset$/).waitFor({ timeout: 20_000 });
    // Past the count no more, so no warning; the long name is shortened, and the line says so.
    await warning.waitFor({ state: 'detached', timeout: 20_000 });
    await page.locator('[data-client-shortened="cursor"]').getByText(/1 name of profile "big" is shortened for it/).waitFor();
  });

  it('opens again on the picked tools, and gives the client every tool back', { timeout: 90_000 }, async () => {
    await page.locator('[data-profile-clients="big"] [data-client-surface="cursor"]').getByRole('button', { name: 'Pick tools for Cursor' }).click();
    const picker = page.getByTestId('client-tools-picker');
    await picker.getByTestId('picked-count').getByText('18 picked; Cursor takes 40').waitFor({ timeout: 20_000 });
    assert.equal(await picker.getByRole('checkbox', { name: /github__merge_pull_request\b/ }).isChecked(), false);
    assert.equal(await picker.getByRole('checkbox', { name: /github__create_pull_request\b/ }).isChecked(), true);
    await picker.getByRole('button', { name: 'Give Cursor all tools' }).click();
    await page.getByText('Cursor now gets all of “big”’s tools.').waitFor({ timeout: 15_000 });
    const cfg = JSON.parse(s.configBytes()) as { profiles: { big: { clients?: { cursor?: { tools?: unknown } } } } };
    assert.equal(cfg.profiles.big.clients?.cursor?.tools, undefined);
    await until(async () => ((await toolNames()).length === 117 ? true : undefined), 'all tools again');
    await picker.waitFor({ state: 'detached' });
  });

  it('says when the client gets code mode, and gives it the profile as it is again', { timeout: 90_000 }, async () => {
    await page.locator('[data-profile-warnings="big"]').getByRole('button', { name: 'Give Cursor code mode' }).click();
    const line = page.locator('[data-profile-clients="big"] [data-client-surface="cursor"]');
    await line.getByText(/Cursor \(known from its connector;.*\) gets code mode$/).waitFor({ timeout: 20_000 });
    await until(async () => ((await toolNames()).length === 3 ? true : undefined), 'code mode for the client');
    await line.getByRole('button', { name: 'Give Cursor the profile as it is' }).click();
    await page.getByText('Cursor now gets “big” as every client does.').waitFor({ timeout: 15_000 });
    const cfg = JSON.parse(s.configBytes()) as { profiles: { big: { clients?: Record<string, unknown> } } };
    assert.equal(cfg.profiles.big.clients?.cursor, undefined);
    await until(async () => ((await toolNames()).length === 117 ? true : undefined), 'the tools surface again');
    await line.getByText(/gets 117 tools$/).waitFor({ timeout: 20_000 });
  });
});

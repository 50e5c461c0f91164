// Connect that proves it worked: after writing, a client's own listing command is run (a real
// program on PATH, here small scripts that print what each CLI prints) and read for the entry.
// The real CLIs' listings: tests/engine/clients/real-opencode.test.ts (opencode mcp list).
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CliContext } from '../../../src-main/cli/command-context.ts';
import { run as connect } from '../../../src-main/cli/commands/connect.ts';
import { checkListing, readListing } from '../../../src-main/engine/clients/listing.ts';
import { defaultShimEntry } from '../../../src-main/engine/platform/shim-entry.ts';
import { CAN_FIND_MARKED } from '../../helpers/processes.ts';
import { CLAUDE_OK, listingStartingServers } from './listing-servers.ts';

const root = mkdtempSync(path.join(os.tmpdir(), 'sb-listing-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A folder holding one program `name` that prints `output` (and exits with `code`, or sleeps). */
function programPrinting(name: string, output: string, opts: { code?: number; sleepSec?: number } = {}): string {
  const dir = mkdtempSync(path.join(root, 'bin-'));
  const file = path.join(dir, name);
  const body = opts.sleepSec ? `setTimeout(() => {}, ${opts.sleepSec * 1000});` : `process.stdout.write(${JSON.stringify(output)}); process.exitCode = ${opts.code ?? 0};`;
  writeFileSync(file, `#!${process.execPath}\n${body}\n`);
  chmodSync(file, 0o755);
  return dir;
}

const env = (dir: string) => ({ env: { PATH: dir, HOME: root }, platform: 'linux' as const });

// As each CLI prints its list (captured from Claude Code 2.1, Gemini CLI 0.61, Codex 0.171, opencode 1.18).
const GEMINI_DOWN = 'Configured MCP servers:\n\n✓ other: npx foo (stdio) - Connected\n✗ switchboard-demo: /usr/bin/node /opt/sb/bin/switchboard.mjs shim --profile demo (stdio) - Disconnected\n';
const CODEX_TABLE = 'Name              Command        Args                                   Env  Cwd  Status   Auth\nswitchboard-demo  /usr/bin/node  /opt/sb/bin/switchboard.mjs shim ...  -    -    enabled  Unsupported\n';
const OPENCODE_OK = '┌  MCP Servers\n│\n●  ✓ switchboard-demo \u001b[2mconnected\u001b[0m\n│      /usr/bin/node /opt/sb/bin/switchboard.mjs\n│\n└  1 server(s)\n';

describe('reading a listing', () => {
  it('finds the entry by its whole name and reads connected, failed or just listed', () => {
    expect(readListing(CLAUDE_OK, 'switchboard-demo', true).outcome).toBe('connected');
    expect(readListing(GEMINI_DOWN, 'switchboard-demo', true).outcome).toBe('failed');
    expect(readListing(CODEX_TABLE, 'switchboard-demo', false).outcome).toBe('listed');
    expect(readListing(OPENCODE_OK, 'switchboard-demo', true)).toMatchObject({ outcome: 'connected', line: expect.not.stringContaining('\u001b') });
    // switchboard-demo2 is another entry; "switchboard-de" is not it either.
    expect(readListing('switchboard-demo2: x - ✓ Connected\n', 'switchboard-demo', true).outcome).toBe('not-listed');
    expect(readListing('', 'switchboard-demo', true).outcome).toBe('not-listed');
    // Gemini CLI in a folder it does not trust lists its servers switched off.
    expect(readListing('○ switchboard-demo: /usr/bin/node /opt/sb/bin/switchboard.mjs shim (stdio) - Disabled\n', 'switchboard-demo', true).outcome).toBe('disabled');
  });
});

describe('running the listing', () => {
  it('says the client lists and connected to the entry', async () => {
    const c = await checkListing('claude-code', 'Claude Code', 'switchboard-demo', env(programPrinting('claude', CLAUDE_OK)));
    expect(c).toMatchObject({ outcome: 'connected', command: 'claude mcp list' });
    expect(c!.message).toBe('Checked: Claude Code lists "switchboard-demo" and connected to it ("claude mcp list").');
  });

  it('says what the client printed when it could not start the entry, even when the listing exits 1', async () => {
    const c = await checkListing('gemini-cli', 'Gemini CLI', 'switchboard-demo', env(programPrinting('gemini', GEMINI_DOWN, { code: 1 })));
    expect(c?.outcome).toBe('failed');
    expect(c!.message).toMatch(/^Checked: Gemini CLI lists "switchboard-demo" but could not start it \("gemini mcp list": ✗ switchboard-demo: .* - Disconnected\)\. Run "switchboard doctor"/);
  });

  it('a listing that only lists (Codex) says it is listed, not connected', async () => {
    const c = await checkListing('codex', 'Codex CLI', 'switchboard-demo', env(programPrinting('codex', CODEX_TABLE)));
    expect(c?.outcome).toBe('listed');
    expect(c!.message).toContain('it starts it in its next session');
  });

  it('an entry the client does not list is said plainly', async () => {
    const c = await checkListing('qwen-code', 'Qwen Code', 'switchboard-demo', env(programPrinting('qwen', 'No MCP servers configured.\n')));
    expect(c?.outcome).toBe('not-listed');
    expect(c!.message).toMatch(/^Checked: "qwen mcp list" does not list "switchboard-demo"/);
  });

  it('a listing that hangs is stopped at the bound and said so', async () => {
    const started = Date.now();
    const c = await checkListing('opencode', 'opencode', 'switchboard-demo', env(programPrinting('opencode', '', { sleepSec: 60 })), 1_000);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(c?.outcome).toBe('unknown');
    expect(c!.message).toBe('Could not check: "opencode mcp list" did not answer within 1 seconds. Start a new opencode session to see the entry.');
  });

  // Claude Code's listing starts every listed server: none of them may outlive the check.
  describe.skipIf(!CAN_FIND_MARKED)('the servers a listing started', () => {
    for (const hang of [true, false]) {
      it(hang ? 'are stopped with a listing that hangs past the bound' : 'are stopped when the listing ends and leaves them running', async () => {
        const run = await listingStartingServers(hang, 3_000);
        expect(run.started).toHaveLength(4);
        // What it printed before it hung is read all the same.
        expect(run.check?.outcome).toBe('connected');
        expect(run.left).toEqual([]);
      });
    }
  });

  it('nothing runs for a client without a listing or without its program', async () => {
    expect(await checkListing('cursor', 'Cursor', 'switchboard-demo', env(programPrinting('cursor', CLAUDE_OK)))).toBeUndefined();
    expect(await checkListing('claude-code', 'Claude Code', 'switchboard-demo', env(mkdtempSync(path.join(root, 'empty-'))))).toBeUndefined();
  });
});

describe('switchboard connect', () => {
  /** A `gemini` that lists the servers of ~/.gemini/settings.json as Gemini CLI prints them. */
  function fakeGemini(): string {
    const dir = mkdtempSync(path.join(root, 'gemini-bin-'));
    const file = path.join(dir, 'gemini');
    writeFileSync(
      file,
      `#!${process.execPath}\n` +
        `const fs = require('node:fs'), path = require('node:path');\n` +
        `const s = JSON.parse(fs.readFileSync(path.join(process.env.HOME, '.gemini', 'settings.json'), 'utf8'));\n` +
        `console.log('Configured MCP servers:\\n');\n` +
        `for (const [n, e] of Object.entries(s.mcpServers ?? {})) console.log('✓ ' + n + ': ' + e.command + ' ' + (e.args ?? []).join(' ') + ' (stdio) - Connected');\n`,
    );
    chmodSync(file, 0o755);
    return dir;
  }

  it('runs the client listing after writing, and reports what it saw; --no-check skips it', async () => {
    const user = mkdtempSync(path.join(root, 'user-'));
    const sbHome = path.join(user, 'sb');
    mkdirSync(path.join(user, '.gemini'), { recursive: true });
    writeFileSync(path.join(user, '.gemini', 'settings.json'), '{}\n');
    let out = '';
    const ctx = {
      home: sbHome,
      homeIsDefault: false,
      stdout: (s: string) => void (out += s),
      stderr: (s: string) => void (out += s),
      env: { HOME: user, PATH: fakeGemini() },
      platform: 'linux',
      shimEntry: (p: string) => defaultShimEntry(sbHome, false, p),
      profiles: async () => ['demo'],
    } as unknown as CliContext;
    expect(await connect(['gemini-cli', '--profile', 'demo'], ctx)).toBe(0);
    expect(JSON.parse(readFileSync(path.join(user, '.gemini', 'settings.json'), 'utf8')).mcpServers['switchboard-demo']).toBeDefined();
    expect(out).toContain('Checked: Gemini CLI lists "switchboard-demo" and connected to it ("gemini mcp list").');
    out = '';
    expect(await connect(['gemini-cli', '--profile', 'demo', '--no-check'], ctx)).toBe(0);
    expect(out).not.toContain('Checked:');
    expect(out).toContain('Next: ');
  });
});

// A real MCP client started from exactly the entry `switchboard connect` wrote into Claude
// Desktop's and Cursor's files (command, args, env), from an unrelated working folder, lists the
// profile's tools through the real shim and engine.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, cleanupHomes, fixtureServer, makeHome } from '../../helpers/home.ts';
import { toolsFromEntry } from './helpers.ts';

const run = promisify(execFile);
const userHome = mkdtempSync(path.join(os.tmpdir(), 'sb-real-client-user-'));
const elsewhere = mkdtempSync(path.join(os.tmpdir(), 'sb-real-client-cwd-'));

afterAll(async () => {
  await cleanupHomes();
  rmSync(userHome, { recursive: true, force: true });
  rmSync(elsewhere, { recursive: true, force: true });
});

describe('a client started from the entry we wrote', () => {
  const home = makeHome({ servers: { basic: fixtureServer('basic.mjs') }, profiles: { demo: { servers: ['basic'] } } });
  const env = { PATH: process.env.PATH, HOME: userHome };

  it.each([
    ['claude-desktop', path.join(userHome, '.config', 'Claude', 'claude_desktop_config.json')],
    ['cursor', path.join(userHome, '.cursor', 'mcp.json')],
  ])('%s: lists the profile tools through the shim', async (client, file) => {
    mkdirSync(path.dirname(file), { recursive: true });
    const res = await run(process.execPath, [BIN, 'connect', client, '--profile', 'demo', '--home', home], { env, cwd: elsewhere });
    expect(res.stdout).toContain(file);
    const entry = JSON.parse(readFileSync(file, 'utf8')).mcpServers['switchboard-demo'] as { command: string; args: string[]; env?: Record<string, string> };
    expect(path.isAbsolute(entry.command)).toBe(true);

    expect(await toolsFromEntry({ command: entry.command, args: entry.args, env: entry.env }, elsewhere, 'basic__echo')).toContain('basic__echo');
  });
});

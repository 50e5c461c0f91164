import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { run as doctorCmd } from '../../../src-main/cli/commands/doctor.ts';
import type { CliContext } from '../../../src-main/cli/command-context.ts';
import { runDoctor } from '../../../src-main/engine/clients/doctor.ts';
import { getConnector } from '../../../src-main/engine/clients/connector.ts';
import { SHIM, tempUser, type TempUser } from './helpers.ts';

let u: TempUser;
const nodeDir = path.dirname(process.execPath);

beforeEach(() => {
  u = tempUser();
  mkdirSync(u.sbHome, { recursive: true });
  const volta = path.join(u.userHome, '.volta', 'bin');
  mkdirSync(volta, { recursive: true });
  writeFileSync(path.join(volta, 'mytool'), '#!/bin/sh\necho hi\n', { mode: 0o755 });
  writeFileSync(
    path.join(u.sbHome, 'config.json'),
    JSON.stringify({
      servers: {
        direct: { command: process.execPath, args: ['/srv/index.js'] },
        viaPath: { command: 'node', args: ['x.js'] },
        missing: { command: 'definitely-not-a-command-xyz' },
        elsewhere: { command: 'mytool' },
        badCwd: { command: process.execPath, cwd: path.join(u.root, 'no-such-folder') },
        remote: { url: 'https://example.com/mcp' },
      },
      profiles: {},
    }),
  );
});
afterEach(() => u.cleanup());

describe('doctor', () => {
  it('resolves each stdio server as the engine would and explains failures', async () => {
    const r = await runDoctor({ home: u.sbHome, env: { HOME: u.userHome, PATH: '/nonexistent' }, platform: 'linux', loginPath: nodeDir });
    const by = Object.fromEntries(r.servers.map((s) => [s.name, s]));
    expect(Object.keys(by).sort()).toEqual(['badCwd', 'direct', 'elsewhere', 'missing', 'viaPath']);
    expect(by.direct).toMatchObject({ ok: true, resolved: process.execPath, node: { path: process.execPath, version: process.version } });
    // Found only through the login shell's PATH, which a GUI client would not have.
    expect(by.viaPath!.ok).toBe(true);
    expect(by.viaPath!.node?.version).toBe(process.version);
    expect(by.viaPath!.advice.join(' ')).toMatch(/only on your login shell's PATH/);
    expect(by.missing).toMatchObject({ ok: false, resolved: null });
    expect(by.missing!.advice.join(' ')).toMatch(/"definitely-not-a-command-xyz" was not found on the PATH the engine uses/);
    expect(by.elsewhere!.advice.join(' ')).toContain(`Found ${path.join(u.userHome, '.volta', 'bin', 'mytool')}: set "command" to that path`);
    expect(by.badCwd!.ok).toBe(false);
    expect(by.badCwd!.advice.join(' ')).toMatch(/does not exist/);
  });

  it('runs nothing of a server proposed from outside, not even its node --version', async () => {
    const marker = path.join(u.root, 'ran');
    const fakeNode = path.join(u.root, 'bin', 'node');
    mkdirSync(path.dirname(fakeNode), { recursive: true });
    writeFileSync(fakeNode, `#!/bin/sh\necho ran >> '${marker}'\necho v22.0.0\n`, { mode: 0o755 });
    writeFileSync(
      path.join(u.sbHome, 'config.json'),
      JSON.stringify({ servers: { proposed: { command: fakeNode, proposedBy: 'a setup script' }, mine: { command: fakeNode } }, profiles: {} }),
    );
    const r = await runDoctor({ home: u.sbHome, env: { HOME: u.userHome, PATH: '/nonexistent' }, platform: 'linux', loginPath: nodeDir });
    const by = Object.fromEntries(r.servers.map((s) => [s.name, s]));
    expect(by.proposed).toMatchObject({ ok: true, resolved: fakeNode });
    expect(by.proposed!.node).toBeUndefined();
    expect(by.proposed!.advice.join(' ')).toContain('Proposed by a setup script and not approved yet, so not run');
    // The user's own entry with the same command is checked as before: the one run is its.
    expect(by.mine!.node?.version).toBe('v22.0.0');
    expect(readFileSync(marker, 'utf8')).toBe('ran\n');
  });

  it('lists clients with their paths and connected profiles, and exits 1 when a server would fail', async () => {
    const file = u.place('cursor', 'several-servers.json');
    await getConnector('cursor', { home: u.sbHome, env: u.env, platform: 'linux' }).connect('demo', SHIM);
    let out = '';
    const ctx = { home: u.sbHome, env: { HOME: u.userHome, PATH: nodeDir }, platform: 'linux', stdout: (s: string) => void (out += s) } as unknown as CliContext;
    expect(await doctorCmd([], ctx)).toBe(1);
    expect(out).toMatch(/cursor\s+connected: demo/);
    expect(out).toContain(file);
    expect(out).toMatch(/claude-desktop\s+not installed/);
    expect(out).toMatch(/FAIL missing: definitely-not-a-command-xyz/);
    expect(out).toMatch(new RegExp(`ok {3}direct: .* → ${process.execPath.replace(/[/\\.]/g, '\\$&')}`));
  });

  it("says when Amazon Q's older mcp.json still holds a Switchboard entry, and shows copy-paste clients without a path", async () => {
    u.place('amazon-q', 'amazonq-default.json');
    const legacy = path.join(u.userHome, '.aws', 'amazonq', 'mcp.json');
    writeFileSync(legacy, JSON.stringify({ mcpServers: { 'switchboard-demo': { command: SHIM.command, args: SHIM.args }, cdk: { command: 'uvx', args: [] } } }, null, 2));
    const r = await runDoctor({ home: u.sbHome, env: { HOME: u.userHome, PATH: '' }, platform: 'linux', loginPath: '' });
    expect(r.clients.find((c) => c.id === 'amazon-q')!.legacy).toEqual([{ file: legacy, entries: ['switchboard-demo'] }]);
    expect(r.clients.find((c) => c.id === 'jan')).toMatchObject({ kind: 'copy-paste', path: '' });
    let out = '';
    const ctx = { home: u.sbHome, env: { HOME: u.userHome, PATH: nodeDir }, platform: 'linux', stdout: (s: string) => void (out += s) } as unknown as CliContext;
    await doctorCmd([], ctx);
    expect(out).toContain(`also loads the older ${legacy}`);
    expect(out).toContain(`it still has switchboard-demo from an earlier connect: Switchboard now writes ${path.join(u.userHome, '.aws', 'amazonq', 'default.json')}`);
    expect(out).toContain('copy-paste: switchboard connect jan --profile NAME prints the steps');
  });

  it('says an npx server starts with the Node.js Switchboard comes with when npx is missing, and fails it only without one', async () => {
    writeFileSync(path.join(u.sbHome, 'config.json'), JSON.stringify({ servers: { mem: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] } }, profiles: {} }));
    const runtime = { node: '/opt/switchboard/node', nodeEnv: {}, npmDir: '/opt/switchboard/npm' };
    const env = { HOME: u.userHome, PATH: '/nonexistent' };
    const lent = (await runDoctor({ home: u.sbHome, env, platform: 'linux', loginPath: '', runtime })).servers[0]!;
    expect(lent).toMatchObject({ ok: true, resolved: '/opt/switchboard/node', advice: ['npx is not installed on this computer; Switchboard runs it with the Node.js it comes with.'] });
    const none = (await runDoctor({ home: u.sbHome, env, platform: 'linux', loginPath: '', runtime: null })).servers[0]!;
    expect(none).toMatchObject({ ok: false, resolved: null });
    expect(none.advice.join(' ')).toMatch(/Install Node\.js/);
  });

  it('reports config.json problems instead of servers', async () => {
    writeFileSync(path.join(u.sbHome, 'config.json'), '{ "servers": ');
    const r = await runDoctor({ home: u.sbHome, env: { HOME: u.userHome }, platform: 'linux', loginPath: '' });
    expect(r.configProblems[0]).toMatch(/line 1/);
    expect(r.servers).toEqual([]);
  });
});

// The engine's side of the boot answer (boot-answers.ts): what it writes for a client, when it
// does not write, and that a client changing its name cannot fill the folder.
import { mkdtempSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BootAnswers, MAX_BOOT_FILES, bootKey, fileStamp, listDigest } from '../../../src-main/engine/gateway/boot-answers.ts';
import { readBootAnswer } from '../../../src-main/shim/boot-answer.mjs';

const init = { protocolVersion: '2025-06-18', capabilities: { tools: { listChanged: true } }, serverInfo: { name: 'switchboard-p', version: '1' } };
const tools = { tools: [{ name: 'a__b', inputSchema: { type: 'object' } }] };

function setup() {
  const home = mkdtempSync(path.join(os.tmpdir(), 'sb-boot-answers-'));
  const configFile = path.join(home, 'config.json');
  writeFileSync(configFile, '{}\n');
  const boot = new BootAnswers({ dir: BootAnswers.dirOf(path.join(home, 'run')), configFile });
  return { home, configFile, boot };
}

describe('the boot answers an engine keeps', () => {
  it('are what the shim reads back for that client, stamped with config.json', async () => {
    const { home, configFile, boot } = setup();
    boot.record({ profile: 'p', connector: 'cursor', clientName: 'Cursor' }, init, 'tools', tools);
    await boot.flush();
    const file = JSON.parse(readFileSync(path.join(boot.dir, `${bootKey('p', 'cursor', 'Cursor')}.json`), 'utf8'));
    expect(file).toMatchObject({ v: 1, profile: 'p', connector: 'cursor', clientName: 'Cursor', config: fileStamp(configFile), lists: { tools }, digests: { tools: listDigest(tools) } });
    // Its initialize without the version the client asked for (the shim negotiates its own).
    expect(file.initialize).toEqual({ capabilities: init.capabilities, serverInfo: init.serverInfo });
    expect(readBootAnswer(home, 'p', 'cursor', 'Cursor')?.lists.tools).toEqual(tools);
    expect(readBootAnswer(home, 'p', '', 'Cursor')).toBeUndefined();
  });

  it('are not written again when nothing changed, nor without an initialize, nor for a name too long', async () => {
    const { boot } = setup();
    const client = { profile: 'p', connector: undefined, clientName: 'c' };
    boot.record(client, init, 'tools', tools);
    await boot.flush();
    const file = path.join(boot.dir, `${bootKey('p', undefined, 'c')}.json`);
    utimesSync(file, new Date(1_000_000), new Date(1_000_000));
    boot.record(client, init, 'tools', structuredClone(tools));
    await boot.flush();
    expect(statSync(file).mtimeMs).toBe(1_000_000);
    boot.record({ ...client, clientName: 'no initialize seen' }, undefined, 'tools', tools);
    boot.record({ ...client, clientName: 'x'.repeat(1001) }, init, 'tools', tools);
    await boot.flush();
    expect(readdirSync(boot.dir)).toEqual([path.basename(file)]);
  });

  it(`keep at most ${MAX_BOOT_FILES} clients, the oldest going first`, async () => {
    const { boot } = setup();
    for (let i = 0; i < MAX_BOOT_FILES + 5; i++) {
      boot.record({ profile: 'p', connector: undefined, clientName: `client ${i}` }, init, 'tools', tools);
      await boot.flush();
      utimesSync(path.join(boot.dir, `${bootKey('p', undefined, `client ${i}`)}.json`), new Date(1_000_000 + i * 1000), new Date(1_000_000 + i * 1000));
    }
    const left = readdirSync(boot.dir);
    expect(left).toHaveLength(MAX_BOOT_FILES);
    expect(left).not.toContain(`${bootKey('p', undefined, 'client 0')}.json`);
    expect(left).toContain(`${bootKey('p', undefined, `client ${MAX_BOOT_FILES + 4}`)}.json`);
  });
});

// A third-party client end to end: the MCP Inspector's command line, launching the real shim
// as its stdio server, lists and calls tools of a profile over the basic fixture server.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ROOT, cleanupHomes, fixtureServer, makeHome } from '../helpers/home.ts';

const run = promisify(execFile);
const INSPECTOR_BUILD = path.join(ROOT, 'node_modules/@modelcontextprotocol/inspector-cli/build');

let home: string;

/** Runs `inspector --cli <shim> --method …` and returns its JSON answer. */
async function inspector(args: string[]): Promise<unknown> {
  const shim = [process.execPath, BIN, 'shim', '--profile', 'demo', '--home', home];
  const { stdout } = await run(process.execPath, [path.join(INSPECTOR_BUILD, 'cli.js'), '--cli', ...shim, ...args], {
    // inspector-cli 1.0.3 looks for its package.json relative to the working directory.
    cwd: INSPECTOR_BUILD,
    timeout: 60_000,
    encoding: 'utf8',
  });
  return JSON.parse(stdout);
}

beforeAll(() => {
  home = makeHome({ servers: { basic: fixtureServer('basic.mjs') }, profiles: { demo: { servers: ['basic'] } } });
});

afterAll(cleanupHomes);

describe('MCP Inspector CLI through the shim', () => {
  it('lists the profile tools under their server__tool names', async () => {
    const result = (await inspector(['--method', 'tools/list'])) as { tools: { name: string; description?: string }[] };
    const names = result.tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['basic__echo', 'basic__add', 'basic__fail']));
    expect(result.tools.find((t) => t.name === 'basic__echo')?.description).toBe('Returns the text it was given.');
  });

  it('calls a tool and gets its text and structured result back', async () => {
    const sum = await inspector(['--method', 'tools/call', '--tool-name', 'basic__add', '--tool-arg', 'a=2', 'b=40']);
    expect(sum).toEqual({ content: [{ type: 'text', text: '42' }], structuredContent: { sum: 42 } });
    const echo = await inspector(['--method', 'tools/call', '--tool-name', 'basic__echo', '--tool-arg', 'text=hello from the inspector']);
    expect(echo).toEqual({ content: [{ type: 'text', text: 'hello from the inspector' }] });
  });

  it('gets a tool error from an upstream as a tool result with isError', async () => {
    const failed = (await inspector(['--method', 'tools/call', '--tool-name', 'basic__fail'])) as { isError?: boolean; content: { text: string }[] };
    expect(failed.isError).toBe(true);
    expect(failed.content[0]?.text).toBe('this tool always fails');
  });
});

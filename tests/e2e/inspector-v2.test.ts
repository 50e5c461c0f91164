// The official MCP Inspector 2.12 command line (built on the v2 SDK) through the real shim, in
// the 2026-07-28 era (`--protocol-era modern`) and in `auto`, over a modern-only and a 2025
// upstream. Inspector 2.12 needs Node ≥ 22.19, so it runs through `npx -p node@22`; the repo's
// .npmrc sets ignore-scripts=true, which would leave node@22 without its binary, so only that
// child gets npm_config_ignore_scripts=false.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, cleanupHomes, fixtureServer, makeHome } from '../helpers/home.ts';

const run = promisify(execFile);
const NPX = ['-y', '-p', 'node@22', '-p', '@modelcontextprotocol/inspector@2.12.0', 'mcp-inspector', '--cli'];

let home: string;
let unavailable: string | undefined;

async function inspector(era: 'modern' | 'auto', args: string[]): Promise<unknown> {
  const shim = [process.execPath, BIN, 'shim', '--profile', 'demo', '--home', home];
  const { stdout } = await run('npx', [...NPX, '--protocol-era', era, '--format', 'json', '-q', ...shim, ...args], {
    env: { ...process.env, npm_config_ignore_scripts: 'false' },
    timeout: 180_000,
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });
  // `--format json` wraps the answer: { "result": … }.
  return (JSON.parse(stdout) as { result: unknown }).result;
}

beforeAll(async () => {
  home = makeHome({ servers: { modern: fixtureServer('v2-modern.mjs'), basic: fixtureServer('basic.mjs') }, profiles: { demo: { servers: ['modern', 'basic'] } } });
  try {
    await run('npx', [...NPX, '--version'], { env: { ...process.env, npm_config_ignore_scripts: 'false' }, timeout: 240_000 });
  } catch (err) {
    unavailable = `Inspector 2.12 could not be fetched through npx (${(err as Error).message.split('\n')[0]})`;
    console.warn(`skipping: ${unavailable}`);
  }
}, 300_000);

afterAll(cleanupHomes);

describe.each(['modern', 'auto'] as const)('MCP Inspector 2.12 CLI, --protocol-era %s, through the shim', (era) => {
  it('lists the tools of both upstreams', async (ctx) => {
    if (unavailable) return ctx.skip(unavailable);
    const result = (await inspector(era, ['--method', 'tools/list'])) as { tools: { name: string; _meta?: Record<string, unknown> }[] };
    const names = result.tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['modern__echo', 'modern__ask', 'basic__echo', 'basic__add']));
    expect(result.tools.find((t) => t.name === 'modern__echo')?._meta).toMatchObject({ 'anthropic/alwaysLoad': true });
  }, 240_000);

  it('calls a tool of each upstream', async (ctx) => {
    if (unavailable) return ctx.skip(unavailable);
    const echo = (await inspector(era, ['--method', 'tools/call', '--tool-name', 'modern__echo', '--tool-arg', `text=from inspector ${era}`])) as { content: { text: string }[] };
    expect(echo.content[0]?.text).toBe(`from inspector ${era}`);
    const sum = (await inspector(era, ['--method', 'tools/call', '--tool-name', 'basic__add', '--tool-arg', 'a=2', 'b=40'])) as { structuredContent: unknown };
    expect(sum.structuredContent).toEqual({ sum: 42 });
  }, 240_000);
});

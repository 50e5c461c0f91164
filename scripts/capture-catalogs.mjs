// Captures the real tools/list of the servers the search evaluation uses, so the fixtures are
// what the servers say, not retyped.
//
//   node scripts/capture-catalogs.mjs              the reference servers in node_modules (tests/fixtures/catalogs)
//   node scripts/capture-catalogs.mjs --npm [DIR]  instead the npm servers of the by-catalog eval
//                                                  (tests/fixtures/search-eval/catalogs), installed
//                                                  pinned with --ignore-scripts into DIR or a new temp
//                                                  folder, never into the project
//   … --npm [DIR] --only=mapbox,neon               only those fixtures (by file name)
//
// Offline-safe: every server is started with placeholder credentials, HOME in a temp folder and
// no network it needs, and only asked tools/list. A server that does not answer within 20 s, or
// exits, is reported and skipped; the fixture it would have written is kept as it was. Once the
// packages are in DIR, a rerun with --npm DIR needs no registry either.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const tmp = mkdtempSync(path.join(os.tmpdir(), 'sb-capture-'));
const REFERENCE_OUT = path.join(ROOT, 'tests/fixtures/catalogs');
const NPM_OUT = path.join(ROOT, 'tests/fixtures/search-eval/catalogs');

const reference = [
  { pkg: '@modelcontextprotocol/server-filesystem', file: 'filesystem.json', args: [tmp] },
  { pkg: '@modelcontextprotocol/server-memory', file: 'memory.json', env: { MEMORY_FILE_PATH: path.join(tmp, 'memory.jsonl') } },
];

// Placeholder credentials: shaped like real ones where a server checks the shape, valid nowhere.
const npmServers = [
  { pkg: '@playwright/mcp', version: '0.0.86', file: 'playwright.json', args: ['--headless', '--isolated'] },
  { pkg: '@notionhq/notion-mcp-server', version: '2.5.2', file: 'notion.json', env: { NOTION_TOKEN: 'ntn_placeholder' } },
  // 0.3 only forwards to Stripe's hosted server; 0.2.5 is the last that lists its tools itself.
  { pkg: '@stripe/mcp', version: '0.2.5', file: 'stripe.json', args: ['--tools=all', '--api-key=sk_test_placeholder'] },
  { pkg: 'mcp-server-kubernetes', version: '4.1.7', file: 'kubernetes.json', env: { ALLOW_ONLY_NON_DESTRUCTIVE_TOOLS: 'false' } },
  // Without "docs": its tool fetches the docs' schema from Supabase while listing.
  { pkg: '@supabase/mcp-server-supabase', version: '0.13.0', file: 'supabase.json', args: ['--access-token=sbp_placeholder', '--features=account,database,debugging,development,functions,branching,storage'] },
  { pkg: 'firecrawl-mcp', version: '3.26.0', file: 'firecrawl.json', env: { FIRECRAWL_API_KEY: 'fc-placeholder' } },
  { pkg: '@sentry/mcp-server', version: '0.39.0', file: 'sentry.json', args: ['--access-token=placeholder'] },
  { pkg: '@cloudflare/mcp-server-cloudflare', version: '0.2.0', file: 'cloudflare.json', args: ['run', '00000000000000000000000000000000'], env: { CLOUDFLARE_API_TOKEN: 'placeholder' } },
  { pkg: '@wonderwhy-er/desktop-commander', version: '0.2.52', file: 'desktop-commander.json', env: { DC_TELEMETRY: 'false' } },
  { pkg: '@hubspot/mcp-server', version: '0.4.0', file: 'hubspot.json', env: { PRIVATE_APP_ACCESS_TOKEN: 'pat-placeholder' } },
  { pkg: '@modelcontextprotocol/server-slack', version: '2025.4.25', file: 'slack.json', env: { SLACK_BOT_TOKEN: 'xoxb-placeholder', SLACK_TEAM_ID: 'T00000000' } },
  { pkg: '@modelcontextprotocol/server-gitlab', version: '2025.4.25', file: 'gitlab.json', env: { GITLAB_PERSONAL_ACCESS_TOKEN: 'glpat-placeholder', GITLAB_API_URL: 'http://127.0.0.1:9/api/v4' } },
  { pkg: '@modelcontextprotocol/server-google-maps', version: '0.6.2', file: 'google-maps.json', env: { GOOGLE_MAPS_API_KEY: 'placeholder' } },
  { pkg: '@upstash/context7-mcp', version: '4.1.1', file: 'context7.json' },
  // The second held-out set (by-catalog-more.json), captured after search had been tuned.
  { pkg: '@mapbox/mcp-server', version: '0.14.0', file: 'mapbox.json', env: { MAPBOX_ACCESS_TOKEN: 'pk.placeholder' } },
  { pkg: 'mongodb-mcp-server', version: '3.0.4', file: 'mongodb.json', env: { MDB_MCP_TELEMETRY: 'disabled' } },
  { pkg: '@circleci/mcp-server-circleci', version: '0.20.0', file: 'circleci.json', env: { CIRCLECI_TOKEN: 'placeholder' } },
  { pkg: 'airtable-mcp-server', version: '1.14.0', file: 'airtable.json', env: { AIRTABLE_API_KEY: 'pat.placeholder' } },
  { pkg: '@brave/brave-search-mcp-server', version: '2.1.4', file: 'brave-search.json', args: ['--transport', 'stdio'], env: { BRAVE_API_KEY: 'placeholder' } },
  { pkg: '@tacticlaunch/mcp-linear', version: '1.4.3', file: 'linear.json', env: { LINEAR_API_TOKEN: 'lin_api_placeholder' } },
  // Tried and left out: @azure-devops/mcp 2.10.0 (loads keytar's native build, which --ignore-scripts
  // skips, and asks Azure for the organisation's tenant before listing), @heroku/mcp-server 1.2.8
  // (closes before answering without the Heroku CLI), @neondatabase/mcp-server-neon 0.6.5 (a
  // dependency comes from a git host, not the registry).
];

/** The entry file of a package's (first) bin. */
function binOf(dir) {
  const { bin, version } = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
  const rel = typeof bin === 'string' ? bin : Object.values(bin)[0];
  return { entry: path.join(dir, rel), version };
}

async function listTools(entry, s) {
  const home = path.join(tmp, 'home');
  mkdirSync(home, { recursive: true });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [entry, ...(s.args ?? [])],
    env: { PATH: process.env.PATH ?? '', HOME: home, NO_PROXY: '*', ...s.env },
    cwd: tmp,
    stderr: 'ignore',
  });
  const client = new Client({ name: 'capture', version: '1.0.0' });
  const timeout = new Promise((_, reject) => setTimeout(() => reject(new Error('no answer in 20 s')), 20_000).unref());
  try {
    await Promise.race([client.connect(transport), timeout]);
    // The raw result: the SDK's own schema check would refuse a server that writes its schemas loosely.
    const result = await Promise.race([client.request({ method: 'tools/list', params: {} }, (await import('zod')).z.any()), timeout]);
    return result.tools;
  } finally {
    await client.close().catch(() => {});
  }
}

async function capture(list, modules, outDir) {
  mkdirSync(outDir, { recursive: true });
  for (const s of list) {
    const dir = path.join(modules, s.pkg);
    if (!existsSync(dir)) {
      console.log(`${s.file}: skipped, ${s.pkg} is not installed in ${modules}`);
      continue;
    }
    const { entry, version } = binOf(dir);
    try {
      const tools = await listTools(entry, s);
      const out = { source: `${s.pkg} ${version} tools/list, captured with @modelcontextprotocol/sdk client`, tools };
      writeFileSync(path.join(outDir, s.file), JSON.stringify(out, null, 1) + '\n');
      console.log(`${s.file}: ${tools.length} tools`);
    } catch (err) {
      console.log(`${s.file}: skipped, ${s.pkg} ${version}: ${err instanceof Error ? err.message : err}`);
    }
  }
}

try {
  const at = process.argv.indexOf('--npm');
  if (at < 0) await capture(reference, path.join(ROOT, 'node_modules'), REFERENCE_OUT);
  else {
    const given = process.argv[at + 1];
    const dir = given && !given.startsWith('--') ? path.resolve(given) : mkdtempSync(path.join(os.tmpdir(), 'sb-servers-'));
    const modules = path.join(dir, 'node_modules');
    const installed = (s) => existsSync(path.join(modules, s.pkg)) && binOf(path.join(modules, s.pkg)).version === s.version;
    const only = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length).split(',');
    const chosen = only ? npmServers.filter((s) => only.includes(s.file.replace(/\.json$/, ''))) : npmServers;
    const missing = chosen.filter((s) => !installed(s));
    if (missing.length > 0) {
      if (!existsSync(path.join(dir, 'package.json'))) writeFileSync(path.join(dir, 'package.json'), '{"name":"capture","private":true}\n');
      execFileSync('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--prefix', dir, ...missing.map((s) => `${s.pkg}@${s.version}`)], { stdio: 'inherit' });
    }
    await capture(chosen, modules, NPM_OUT);
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}

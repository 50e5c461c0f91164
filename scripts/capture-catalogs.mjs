// Captures the real tools/list of the reference servers the search evaluation uses, so the
// fixtures are what the servers say, not retyped. Run: node scripts/capture-catalogs.mjs
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const tmp = mkdtempSync(path.join(os.tmpdir(), 'sb-capture-'));
const servers = [
  { pkg: '@modelcontextprotocol/server-filesystem', file: 'filesystem.json', args: [tmp] },
  { pkg: '@modelcontextprotocol/server-memory', file: 'memory.json', args: [], env: { MEMORY_FILE_PATH: path.join(tmp, 'memory.jsonl') } },
];
try {
  for (const s of servers) {
    const dir = path.join(ROOT, 'node_modules', s.pkg);
    const { version } = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [path.join(dir, 'dist/index.js'), ...s.args],
      env: { PATH: process.env.PATH ?? '', ...s.env },
      stderr: 'ignore',
    });
    const client = new Client({ name: 'capture', version: '1.0.0' });
    await client.connect(transport);
    const { tools } = await client.listTools();
    await client.close();
    const out = { source: `${s.pkg} ${version} tools/list, captured with @modelcontextprotocol/sdk client`, tools };
    writeFileSync(path.join(ROOT, 'tests/fixtures/catalogs', s.file), JSON.stringify(out, null, 1) + '\n');
    console.log(`${s.file}: ${tools.length} tools`);
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}

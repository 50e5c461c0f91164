// A client listing that starts servers, as Claude Code's `mcp list` does
// (tests/fixtures/clients/listing-starts-servers.mjs), run through checkListing: what the check
// said, the processes the listing started, and those of them still running after it.
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ClientCheck } from '../../../src-shared/api.ts';
import { checkListing } from '../../../src-main/engine/clients/listing.ts';
import { killMarked, MARK_VAR, markedProcesses, newMark } from '../../helpers/processes.ts';

const FIXTURE = fileURLToPath(new URL('../../fixtures/clients/listing-starts-servers.mjs', import.meta.url));

/** Claude Code's listing of a connected entry. */
export const CLAUDE_OK = 'Checking MCP server health...\n\nswitchboard-demo: /usr/bin/node /opt/sb/bin/switchboard.mjs shim --profile demo - ✓ Connected\nother: npx foo - ✗ Failed to connect\n';

export interface ListingServersRun {
  check: ClientCheck | undefined;
  /** The two servers and their children, as the listing wrote them once all four ran. */
  started: number[];
  /** Every process of the listing still running once the check answered. */
  left: number[];
}

/** Runs the check with a `claude` that starts its servers, then hangs (`hang`) or exits. */
export async function listingStartingServers(hang: boolean, timeoutMs: number): Promise<ListingServersRun> {
  const mark = newMark();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sb-listing-servers-'));
  try {
    writeFileSync(path.join(dir, 'claude'), `#!${process.execPath}\nimport(${JSON.stringify(FIXTURE)});\n`);
    chmodSync(path.join(dir, 'claude'), 0o755);
    const pidsFile = path.join(dir, 'pids.json');
    const check = await checkListing('claude-code', 'Claude Code', 'switchboard-demo', {
      env: { PATH: dir, HOME: dir, [MARK_VAR]: mark, LISTING_OUTPUT: CLAUDE_OK, LISTING_HANG: hang ? '1' : '0', LISTING_PIDS: pidsFile },
      platform: 'linux',
    }, timeoutMs);
    const left = markedProcesses(mark);
    return { check, started: JSON.parse(readFileSync(pidsFile, 'utf8')) as number[], left };
  } finally {
    killMarked(mark);
    rmSync(dir, { recursive: true, force: true });
  }
}

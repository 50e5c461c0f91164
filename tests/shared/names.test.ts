import { describe, expect, it } from 'vitest';
import {
  MAX_TOOL_NAME_LENGTH,
  codeNames,
  exposedToolNames,
  exposedToolTable,
  toolKey,
} from '../../src-shared/names.ts';

describe('exposedToolNames', () => {
  it('names tools <server>__<tool> and keeps names that are already valid', () => {
    const names = exposedToolNames(
      [
        { server: 'github', tool: 'create_issue' },
        { server: 'fs', tool: 'read-file' },
      ],
      { namespace: true },
    );
    expect(names.get(toolKey('github', 'create_issue'))).toBe('github__create_issue');
    expect(names.get(toolKey('fs', 'read-file'))).toBe('fs__read-file');
  });

  it('uses the bare tool name without a namespace', () => {
    const names = exposedToolNames([{ server: 'github', tool: 'create_issue' }], { namespace: false });
    expect(names.get(toolKey('github', 'create_issue'))).toBe('create_issue');
  });

  it('replaces characters outside [A-Za-z0-9_-] with _', () => {
    const names = exposedToolNames([{ server: 'my server', tool: 'files.read/all 🎉' }], { namespace: true });
    expect(names.get(toolKey('my server', 'files.read/all 🎉'))).toBe('my_server__files_read_all__');
  });

  it('keeps names unique when sanitising makes them collide, the unchanged one keeping its name', () => {
    const entries = [
      { server: 's', tool: 'a.b' },
      { server: 's', tool: 'a_b' },
      { server: 's', tool: 'a/b' },
    ];
    const table = exposedToolTable(entries, { namespace: true });
    expect(table.nameOf('s', 'a_b')).toBe('s__a_b');
    const others = [table.nameOf('s', 'a.b')!, table.nameOf('s', 'a/b')!];
    expect(new Set(others).size).toBe(2);
    for (const name of others) expect(name).toMatch(/^s__a_b_[0-9a-f]{6}$/);
    for (const e of entries) expect(table.lookup(table.nameOf(e.server, e.tool)!)).toEqual(e);
  });

  it('shortens names over 64 characters deterministically and keeps them unique', () => {
    const long = 'x'.repeat(80);
    const entries = [
      { server: 'server', tool: `${long}_one` },
      { server: 'server', tool: `${long}_two` },
    ];
    const first = exposedToolNames(entries, { namespace: true });
    const again = exposedToolNames([...entries].reverse(), { namespace: true });
    const names = [...first.values()];
    expect(names.every((n) => n.length <= MAX_TOOL_NAME_LENGTH)).toBe(true);
    expect(names[0]!.startsWith('server__xxxx')).toBe(true);
    expect(new Set(names).size).toBe(2);
    expect([...again.entries()].sort()).toEqual([...first.entries()].sort());
  });

  it('keeps a tool its name when other tools come and go', () => {
    const base = [
      { server: 's', tool: 'a.b' },
      { server: 's', tool: 'a/b' },
    ];
    const before = exposedToolNames(base, { namespace: true }).get(toolKey('s', 'a/b'));
    const after = exposedToolNames([...base, { server: 's', tool: 'a b' }], { namespace: true }).get(toolKey('s', 'a/b'));
    expect(after).toBe(before);
  });

  it('settles a collision of changed names by the order the tools come, not by the alphabet', () => {
    // "a.b" sorts first; "a/b" came first, so it keeps the name either way round.
    for (const [first, second] of [['a/b', 'a.b'], ['a.b', 'a/b']] as const) {
      const table = exposedToolTable([first, second].map((tool) => ({ server: 's', tool })), { namespace: true });
      expect([table.nameOf('s', first), table.nameOf('s', second)]).toEqual(['s__a_b', expect.stringMatching(/^s__a_b_[0-9a-f]{6}$/)]);
    }
  });

  it('never gives a changed name a literal name has: a tool named like a shortened name keeps it, wherever it comes', () => {
    const long = { server: 's', tool: 'x'.repeat(80) };
    const shortened = exposedToolTable([long], { namespace: true }).nameOf('s', long.tool)!;
    const literal = { server: 's', tool: shortened.slice('s__'.length) };
    for (const entries of [[long, literal], [literal, long]]) {
      const table = exposedToolTable(entries, { namespace: true });
      expect(table.nameOf('s', literal.tool)).toBe(shortened);
      expect(table.nameOf('s', long.tool)).not.toBe(shortened);
      expect(table.byName.size).toBe(2);
    }
  });

  it('reverses exposed names to their server and tool, and knows nothing else', () => {
    const table = exposedToolTable([{ server: 'beta-2', tool: 'list.all' }], { namespace: true });
    expect(table.lookup('beta-2__list_all')).toEqual({ server: 'beta-2', tool: 'list.all' });
    expect(table.lookup('beta-2__list.all')).toBeUndefined();
    expect(table.byName.size).toBe(1);
  });

  it('separates the same tool name on two servers without a namespace', () => {
    const table = exposedToolTable(
      [
        { server: 'a', tool: 'search' },
        { server: 'b', tool: 'search' },
      ],
      { namespace: false },
    );
    expect(table.nameOf('a', 'search')).toBe('search');
    expect(table.nameOf('b', 'search')).toMatch(/^search_[0-9a-f]{6}$/);
  });
});

describe('codeNames', () => {
  it('turns a server named beta-2 into the global beta_2', () => {
    expect(codeNames([{ server: 'beta-2', tools: [] }]).globals.get('beta-2')).toBe('beta_2');
  });

  it('prefixes a leading digit and keeps letters that are valid in identifiers', () => {
    const { globals, methods } = codeNames([{ server: '3d-tools', tools: ['2fa', 'café', 'get$x', 'a b.c'] }]);
    expect(globals.get('3d-tools')).toBe('_3d_tools');
    const m = methods.get('3d-tools')!;
    expect([m.get('2fa'), m.get('café'), m.get('get$x'), m.get('a b.c')]).toEqual(['_2fa', 'café', 'get$x', 'a_b_c']);
  });

  it('suffixes reserved words and the sandbox own globals', () => {
    const { globals } = codeNames(
      ['catalog', 'console', 'Math', 'JSON', 'class', 'undefined', 'eval', 'await', '__proto__', 'constructor'].map((server) => ({ server, tools: [] })),
    );
    expect([...globals.values()]).toEqual([
      'catalog_', 'console_', 'Math_', 'JSON_', 'class_', 'undefined_', 'eval_', 'await_', '__proto___', 'constructor_',
    ]);
  });

  it('treats extra sandbox globals like its own', () => {
    expect(codeNames([{ server: 'host', tools: [] }], { extraGlobals: ['host'] }).globals.get('host')).toBe('host_');
  });

  it('makes methods safe from reserved and inherited names but allows built-in names', () => {
    const m = codeNames([{ server: 's', tools: ['delete', '__proto__', 'constructor', 'toString', 'Math', 'console'] }]).methods.get('s')!;
    expect([...m.values()]).toEqual(['delete_', '__proto___', 'constructor_', 'toString_', 'Math', 'console']);
  });

  it('numbers collisions in a stable order, a name that needed no change keeping it', () => {
    const tools = ['get-item', 'get_item', 'get.item', 'get_item_2'];
    const m = codeNames([{ server: 's', tools }]).methods.get('s')!;
    expect(m.get('get_item')).toBe('get_item');
    expect(m.get('get_item_2')).toBe('get_item_2');
    // '-' sorts before '.', so get-item is numbered first; get_item_2 is taken, so it gets _3.
    expect(m.get('get-item')).toBe('get_item_3');
    expect(m.get('get.item')).toBe('get_item_4');
    const shuffled = codeNames([{ server: 's', tools: [...tools].reverse() }]).methods.get('s')!;
    for (const t of tools) expect(shuffled.get(t)).toBe(m.get(t));
  });

  it('numbers colliding globals too', () => {
    const { globals } = codeNames([
      { server: 'my.server', tools: [] },
      { server: 'my-server', tools: [] },
    ]);
    expect(globals.get('my-server')).toBe('my_server');
    expect(globals.get('my.server')).toBe('my_server_2');
  });

  it('gives every name a valid identifier that the JavaScript parser accepts', () => {
    const weird = ['', ' ', '🎉', 'a\u200db', '0', 'let', 'yield', 'x-y-z', 'in', 'NaN', 'Infinity', 'arguments'];
    const { globals, methods } = codeNames(weird.map((server) => ({ server, tools: weird })));
    const all = [...globals.values(), ...[...methods.values()].flatMap((m) => [...m.values()])];
    for (const name of all) {
      expect(() => new Function(`"use strict"; return async () => { let ${name} = 1; return ${name}; };`)).not.toThrow();
    }
    expect(new Set(globals.values()).size).toBe(weird.length);
  });
});

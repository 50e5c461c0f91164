// The skills file of a home: atomic whole-file writes that never lose a concurrent save, a file
// that cannot be read left untouched (and saving refused), hand-edited entries that could not be
// saved so left out of the listing but kept in the file.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SkillStore } from '../../../src-main/engine/codemode/skills.ts';
import type { RunRecord } from '../../../src-shared/records.ts';
import { DEFAULT_BUDGETS } from '../../../src-shared/config/budgets.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function file(): string {
  const d = mkdtempSync(path.join(os.tmpdir(), 'sb-skills-'));
  dirs.push(d);
  return path.join(d, 'skills.json');
}
const run = (id: string, extra: Partial<RunRecord> = {}): RunRecord => ({
  id, time: new Date().toISOString(), profile: 'p', client: 'c', code: 'async () => 1', logs: [],
  calls: [{ server: 'gh', tool: 'list', start: 0, duration: 1, outcome: 'ok' }, { server: 'gh', tool: 'list', start: 1, duration: 1, outcome: 'ok' }],
  durationMs: 2, budgets: DEFAULT_BUDGETS, result: 1, ...extra,
});

describe('skill store', () => {
  it('keeps every one of concurrent saves, in one file with owner-only permissions', async () => {
    const f = file();
    const store = SkillStore.open(f);
    await Promise.all(['a', 'b', 'c', 'd'].map((n) => store.save(run(`r-${n}`), { name: n })));
    expect(store.list().map((s) => s.name)).toEqual(['a', 'b', 'c', 'd']);
    expect(Object.keys(JSON.parse(readFileSync(f, 'utf8')).skills).sort()).toEqual(['a', 'b', 'c', 'd']);
    expect(store.get('a')!.tools).toEqual(['gh.list']);
    expect(SkillStore.open(f).list()).toHaveLength(4);
    if (process.platform !== 'win32') {
      const { statSync } = await import('node:fs');
      expect(statSync(f).mode & 0o777).toBe(0o600);
    }
  });

  it('leaves a file it cannot read untouched and refuses to save over it', async () => {
    const f = file();
    writeFileSync(f, '{ not json');
    const store = SkillStore.open(f);
    expect(store.problem).toMatch(/not valid JSON/);
    expect(store.list()).toEqual([]);
    await expect(store.save(run('r1'), { name: 'x' })).rejects.toThrow(/not valid JSON/);
    expect(readFileSync(f, 'utf8')).toBe('{ not json');
  });

  it('lists only well-formed entries of a hand-edited file, and keeps the others in it', async () => {
    const f = file();
    const good = { name: 'ok', description: '', input: { type: 'object' }, code: 'async () => 1', profile: 'p', fromRun: 'r', created: '', tools: [] };
    writeFileSync(f, JSON.stringify({ version: 1, skills: { ok: good, __proto__x: { ...good, name: '__proto__x', input: 'no' }, class: { ...good, name: 'class' } } }));
    const store = SkillStore.open(f);
    expect(store.list().map((s) => s.name)).toEqual(['ok']);
    expect(store.get('class')).toBeUndefined();
    await store.save(run('r2'), { name: 'fresh' });
    expect(Object.keys(JSON.parse(readFileSync(f, 'utf8')).skills).sort()).toEqual(['__proto__x', 'class', 'fresh', 'ok']);
  });

  it('refuses a skill of a skill run', async () => {
    const store = SkillStore.open(file());
    await expect(store.save(run('r3', { skill: { name: 'a', parentRunId: 'r0' } }), { name: 'b' })).rejects.toThrow(/is a call of the skill "a"/);
  });
});

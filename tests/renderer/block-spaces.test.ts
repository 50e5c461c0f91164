// Svelte drops the whitespace a block starts with: `ready.{#if x} This` renders "ready.This",
// `<strong>a</strong>{#if b} <span>(called…` renders "a(called…". A space meant to be seen at the
// start of a block is written `{' '}`; this keeps the slip from coming back.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../../src-renderer');
const svelteFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? svelteFiles(path.join(dir, e.name)) : e.name.endsWith('.svelte') ? [path.join(dir, e.name)] : []));

describe('text around Svelte blocks', () => {
  it('has no space at the start of a block on the same line (Svelte would drop it)', () => {
    const slips: string[] = [];
    for (const file of svelteFiles(ROOT)) {
      readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
        if (/\{(?:#if|:else|#each)[^}]*\} [A-Za-z<(“]/.test(line)) slips.push(`${path.relative(ROOT, file)}:${i + 1}: ${line.trim()}`);
      });
    }
    expect(slips).toEqual([]);
  });
});

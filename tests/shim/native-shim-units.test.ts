// The native shim's own unit tests (Rust #[cfg(test)] modules: the JSON reader, the boot
// answer's file key, stamp and lines), run by cargo with the standard library only.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { NATIVE_SHIM_UNAVAILABLE, ROOT } from '../helpers/home.ts';

describe('the native shim', () => {
  if (NATIVE_SHIM_UNAVAILABLE) console.log(`native shim unit tests skipped: ${NATIVE_SHIM_UNAVAILABLE}`);
  it.skipIf(NATIVE_SHIM_UNAVAILABLE)('passes its Rust unit tests', { timeout: 300_000 }, () => {
    const dir = path.join(ROOT, 'native', 'shim');
    const r = spawnSync('cargo', ['test', '--offline', '--quiet', '--target-dir', path.join(dir, 'target', 'unit-tests')], { cwd: dir, encoding: 'utf8' });
    expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
    expect(r.stdout).toMatch(/test result: ok\. [1-9]\d* passed; 0 failed/);
  });
});

// The native shim cross-built for Windows (x86_64-pc-windows-gnu) on this Linux machine: it must
// compile (its named-pipe transport and process-start code are cfg(windows) and no other build
// sees them), be a 64-bit console program (a GUI-subsystem binary has no stdio for the MCP
// client to talk to) and carry the named-pipe calls its transport makes. It cannot run here; on
// Windows the shim tests run against it as they run against the Linux build.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildWindowsShim, windowsToolchain } from '../../scripts/build-native-shim.mjs';

const toolchain = windowsToolchain();
const missing = 'missing' in toolchain ? toolchain.missing : '';
if (missing) console.log(`native-shim-windows: skipped, ${missing}. .ci/run installs it.`);

const out = mkdtempSync(path.join(os.tmpdir(), 'sb-winshim-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

/** The fields of a PE image that say what runs it. */
function peHeader(bin: Buffer) {
  expect(bin.subarray(0, 2).toString('latin1')).toBe('MZ');
  const pe = bin.readUInt32LE(0x3c);
  expect(bin.subarray(pe, pe + 4).toString('latin1')).toBe('PE\0\0');
  const optional = pe + 24;
  return {
    machine: bin.readUInt16LE(pe + 4),
    magic: bin.readUInt16LE(optional),
    // Subsystem sits at offset 68 of the optional header in both PE32 and PE32+.
    subsystem: bin.readUInt16LE(optional + 68),
  };
}

describe.skipIf(Boolean(missing))('native shim, cross-built for Windows', () => {
  let bin: Buffer;

  it('builds with the standard library only and is a 64-bit console program', () => {
    const built = buildWindowsShim({ outDir: out, log: () => undefined });
    expect(built.binary).toBe(path.join(out, 'switchboard.exe'));
    bin = readFileSync(built.binary);
    const h = peHeader(bin);
    expect(h.machine).toBe(0x8664); // x86-64
    expect(h.magic).toBe(0x20b); // PE32+
    expect(h.subsystem).toBe(3); // IMAGE_SUBSYSTEM_WINDOWS_CUI: stdin/stdout for the client
    // Stripped, LTO, no crates: the same order of size as the Linux build.
    expect(built.bytes).toBeLessThan(2_000_000);
  }, 180_000);

  it('relays over an overlapped named pipe and names the engine pipe as the engine does', () => {
    expect(bin, 'the build above must have passed').toBeDefined();
    const text = bin.toString('latin1');
    for (const fn of ['CreateFileW', 'ReadFile', 'WriteFile', 'GetOverlappedResult', 'CancelIoEx', 'CreateEventW']) {
      expect(text, `imports ${fn}`).toContain(fn);
    }
    // src-main/engine/platform/home.ts names it \\.\pipe\switchboard-<16 hex of sha256(home, lower case)>.
    expect(text).toContain('\\\\.\\pipe\\switchboard-');
  });
});

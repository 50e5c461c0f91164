// electron-builder cannot run here (no Electron binary download), so its configuration is
// checked as data: every target the product ships, icons that exist at the sizes each OS needs,
// the switchboard:// scheme, the hardened fuses, and files that the build really produces.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const ROOT = path.join(import.meta.dirname, '..', '..');
const cfg = parse(readFileSync(path.join(ROOT, 'electron-builder.yml'), 'utf8')) as Record<string, any>;
const targets = (os: string) => (cfg[os].target as (string | { target: string })[]).map((t) => (typeof t === 'string' ? t : t.target));

/** Width and height of a PNG, from its IHDR chunk. */
function pngSize(file: string): { width: number; height: number } {
  const b = readFileSync(path.join(ROOT, file));
  expect(b.subarray(1, 4).toString('latin1')).toBe('PNG');
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}

describe('electron-builder configuration', () => {
  it('builds a dmg and a zip for macOS, an nsis installer for Windows, an AppImage and a deb for Linux', () => {
    expect(targets('mac').sort()).toEqual(['dmg', 'zip']);
    expect(targets('win')).toEqual(['nsis']);
    expect(targets('linux').sort()).toEqual(['AppImage', 'deb']);
  });

  it('gives every OS an icon of at least 512 × 512 (macOS needs 512, Windows 256) and square tray images', () => {
    for (const os of ['mac', 'win', 'linux']) {
      const { width, height } = pngSize(cfg[os].icon);
      expect(width).toBe(height);
      expect(width).toBeGreaterThanOrEqual(512);
    }
    for (const tray of ['assets/tray.png', 'assets/trayTemplate.png', 'assets/trayTemplate@2x.png']) {
      const { width, height } = pngSize(tray);
      expect(width).toBe(height);
    }
    expect(pngSize('assets/trayTemplate@2x.png').width).toBe(2 * pngSize('assets/trayTemplate.png').width);
  });

  it('registers switchboard:// links', () => {
    expect(cfg.protocols.flatMap((p: { schemes: string[] }) => p.schemes)).toEqual(['switchboard']);
  });

  it('keeps the fuses that stop other programs running code as the app', () => {
    expect(cfg.electronFuses).toMatchObject({ runAsNode: false, enableNodeOptionsEnvironmentVariable: false, enableNodeCliInspectArguments: false, onlyLoadAppFromAsar: true });
  });

  it('packs what npm run build:electron writes, from package.json\'s main', () => {
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    expect(pkg.main).toBe('out/electron/main.js');
    expect(cfg.files).toContain('out/**');
    expect(pkg.scripts['build:electron']).toContain('src-main/electron/vite.build.config.ts');
    expect(pkg.devDependencies.electron).toBe('41.7.1');
  });

  it('unpacks the QuickJS packages the sandbox worker loads, and ships only the one variant it uses', () => {
    // The worker is read from app.asar.unpacked by Node's own loader, and so is what it imports.
    const sources = ['sandbox-module.ts', 'sandbox-run.ts', 'sandbox-spare.ts'].map((f) => readFileSync(path.join(ROOT, 'src-main/engine/codemode', f), 'utf8')).join('\n');
    const imported = [...sources.matchAll(/from '((?:@jitl\/)?quickjs[^']*)'/g)].map((m) => m[1]!);
    expect(new Set(imported)).toEqual(new Set(['quickjs-emscripten-core', '@jitl/quickjs-wasmfile-release-sync']));
    const needed = new Set<string>();
    const add = (name: string): void => {
      if (needed.has(name)) return;
      needed.add(name);
      const pkg = JSON.parse(readFileSync(path.join(ROOT, 'node_modules', name, 'package.json'), 'utf8'));
      for (const dep of Object.keys(pkg.dependencies ?? {})) add(dep);
    };
    for (const name of imported) add(name);
    for (const name of needed) expect(cfg.asarUnpack, name).toContain(`node_modules/${name}/**`);
    // No pattern unpacks the other three variants (the quickjs-emscripten wrapper brought them).
    expect(cfg.asarUnpack.filter((p: string) => /quickjs/.test(p)).sort()).toEqual([...needed].map((n) => `node_modules/${n}/**`).sort());
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    expect(pkg.dependencies['quickjs-emscripten']).toBeUndefined();
  });

  it('publishes the update feed electron-updater reads: GitHub releases, with the formats it updates from', () => {
    // release.yml uploads to a draft and makes it public after the smoke tests (tests/workflows/workflows.test.ts).
    expect(cfg.publish).toEqual({ provider: 'github', releaseType: 'draft' });
    // Stable releases also write beta*.yml, so that the beta channel (Settings) gets them too.
    expect(cfg.generateUpdatesFilesForAllChannels).toBe(true);
    // electron-updater installs macOS updates from the zip, Windows ones with NSIS, Linux ones as AppImage.
    expect(targets('mac')).toContain('zip');
    expect(targets('win')).toContain('nsis');
    expect(targets('linux')).toContain('AppImage');
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    expect(pkg.dependencies['electron-updater']).toBe('6.8.10');
    expect(readFileSync(path.join(ROOT, 'src-main/electron/main.ts'), 'utf8')).toContain("from 'electron-updater'");
  });
});

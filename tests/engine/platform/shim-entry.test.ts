import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkoutNativeShim, defaultShimEntry, installedShimPath } from '../../../src-main/engine/platform/shim-entry.ts';
import { BIN } from '../../helpers/home.ts';

describe('the shim entry written into client configs', () => {
  it('is absolute node plus the checkout script when not packaged and no native shim is built', () => {
    expect(defaultShimEntry('/h', false, 'p', {}, null)).toEqual({ command: process.execPath, args: [BIN, 'shim', '--profile', 'p', '--home', '/h'] });
    expect(defaultShimEntry('/h', true, 'p', {}, null)).toEqual({ command: process.execPath, args: [BIN, 'shim', '--profile', 'p'] });
  });

  it("is the checkout's native shim once npm run build:native-shim has built it", () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'sb-native-root-'));
    try {
      expect(checkoutNativeShim(root, 'linux')).toBeUndefined();
      const dir = path.join(root, 'out', 'native-shim');
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, 'switchboard'), '');
      // A binary without its engine-command.json could not start an engine here.
      expect(checkoutNativeShim(root, 'linux')).toBeUndefined();
      writeFileSync(path.join(dir, 'engine-command.json'), '[]');
      const native = checkoutNativeShim(root, 'linux')!;
      expect(native).toBe(path.join(dir, 'switchboard'));
      expect(defaultShimEntry('/h', false, 'p', {}, native)).toEqual({ command: native, args: ['shim', '--profile', 'p', '--home', '/h'] });
      // The installed app's shim still wins.
      expect(defaultShimEntry('/h', true, 'p', { SWITCHBOARD_SHIM_PATH: '/opt/s' }, native).command).toBe('/opt/s');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('is the installed shim binary when the app sets SWITCHBOARD_SHIM_PATH', () => {
    const env = { SWITCHBOARD_SHIM_PATH: '/opt/Switchboard/resources/bin/switchboard' };
    expect(defaultShimEntry('/h', false, 'p', env)).toEqual({
      command: '/opt/Switchboard/resources/bin/switchboard',
      args: ['shim', '--profile', 'p', '--home', '/h'],
    });
    expect(defaultShimEntry('/h', true, 'p', env).args).toEqual(['shim', '--profile', 'p']);
  });

  it('places the installed shim where electron-builder puts extraResources', () => {
    expect(installedShimPath('/Applications/Switchboard.app/Contents/Resources', 'darwin')).toBe('/Applications/Switchboard.app/Contents/Resources/bin/switchboard');
    expect(installedShimPath('C:\\Programs\\Switchboard\\resources', 'win32')).toBe('C:\\Programs\\Switchboard\\resources\\bin\\switchboard.exe');
    expect(installedShimPath('/opt/Switchboard/resources', 'linux')).toBe('/opt/Switchboard/resources/bin/switchboard');
  });
});

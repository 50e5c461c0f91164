import { describe, expect, it } from 'vitest';
import { defaultShimEntry, installedShimPath } from '../../../src-main/engine/clients/shim-entry.ts';
import { BIN } from '../../helpers/home.ts';

describe('the shim entry written into client configs', () => {
  it('is absolute node plus the checkout script when not packaged', () => {
    expect(defaultShimEntry('/h', false, 'p', {})).toEqual({ command: process.execPath, args: [BIN, 'shim', '--profile', 'p', '--home', '/h'] });
    expect(defaultShimEntry('/h', true, 'p', {})).toEqual({ command: process.execPath, args: [BIN, 'shim', '--profile', 'p'] });
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

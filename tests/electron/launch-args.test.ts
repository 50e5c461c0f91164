import { describe, expect, it } from 'vitest';
import { parseLaunchArgs } from '../../src-main/electron/launch-args.ts';

describe('the desktop app command line', () => {
  it('opens a window for the default home when given nothing', () => {
    expect(parseLaunchArgs(['/opt/Switchboard/switchboard-desktop'])).toEqual({ hidden: false });
  });

  it('reads --hidden and --home as the packaged shim passes them', () => {
    expect(parseLaunchArgs(['/opt/Switchboard/switchboard-desktop', '--hidden', '--home', '/tmp/h'])).toEqual({ hidden: true, home: '/tmp/h' });
  });

  it('reads --home=DIR and ignores switches Electron and Chromium add', () => {
    const argv = ['Switchboard', '--allow-file-access-from-files', '--home=/tmp/h2', '--original-process-start-time=1'];
    expect(parseLaunchArgs(argv)).toEqual({ hidden: false, home: '/tmp/h2' });
  });

  it('ignores a trailing --home with no folder', () => {
    expect(parseLaunchArgs(['Switchboard', '--hidden', '--home'])).toEqual({ hidden: true });
  });
});

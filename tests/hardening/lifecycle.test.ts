// Issue 29 ("Trust round 5"), findings 4, 6, 7 and 8, as attacks and faults: an app path cannot
// add a command to the autostart entry; a lock or start claim dated in the future is still
// broken; an engine stopped at any moment of its start goes, with its servers; a client's
// listing that times out leaves none of the servers it started.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect } from 'vitest';
import { autostartFile, syncLoginItem, type LoginItemHost } from '../../src-main/electron/login-item.ts';
import { hardeningCase } from './hardening-case.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tempDir(prefix: string): string {
  const d = mkdtempSync(path.join(os.tmpdir(), prefix));
  dirs.push(d);
  return d;
}

describe('issue 29: start at login', () => {
  // gio launch reads an entry with GLib, as GNOME's session does at login.
  const gio = spawnSync('gio', ['--version']).status === 0;

  hardeningCase('attack', 'issue 29 #4: an AppImage named with a line break cannot add an Exec= line to the autostart entry', async (tally) => {
    const dir = tempDir('sb-hard-login-');
    const marker = path.join(dir, 'second-command-ran');
    const second = path.join(dir, 'second.sh');
    writeFileSync(second, `#!/bin/sh\ntouch '${marker}'\n`);
    chmodSync(second, 0o755);
    for (const [label, name] of [
      ['line feed', `Switch\nExec=${second}\nX-Rest=.AppImage`],
      ['carriage return', `Switch\rExec=${second}\rX-Rest=.AppImage`],
      ['CR LF', `Switch\r\nExec=${second}\r\nX-Rest=.AppImage`],
      ['NEL', `Switch\u0085Exec=${second}\u0085X-Rest=.AppImage`],
      ['vertical tab and form feed', `Switch\u000bExec=${second}\u000cX-Rest=.AppImage`],
    ] as const) {
      await tally.attempt(label, () => {
        rmSync(marker, { force: true });
        const host: LoginItemHost = {
          platform: 'linux', isPackaged: true, execPath: '/tmp/.mount_Switch/switchboard-desktop', homedir: dir,
          env: { APPIMAGE: path.join(dir, name) },
          getLoginItemSettings: () => ({ openAtLogin: false }), setLoginItemSettings: () => undefined,
        };
        const file = autostartFile(host);
        let refused: unknown;
        try {
          syncLoginItem(host, true);
        } catch (err) {
          refused = err;
        }
        // Whatever was written must start nothing but the app, as a real launcher reads it.
        if (existsSync(file)) {
          const text = readFileSync(file, 'utf8');
          if (gio) spawnSync('gio', ['launch', file], { timeout: 10_000 });
          rmSync(file);
          expect(text.match(/^Exec=/gm), 'Exec lines in the entry').toHaveLength(1);
        }
        expect(existsSync(marker), 'the second command ran').toBe(false);
        expect(String(refused)).toMatch(/cannot start at login .*line break or another control character/);
      });
    }
  });
});

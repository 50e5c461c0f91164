// switchboard:// links reaching the desktop app (Electron surface faked): registered as the
// scheme's handler, taken from open-url (macOS, even before the window can open) and from the
// command line of a first or second instance (Windows, Linux); each only opens the approval screen.
import { describe, expect, it } from 'vitest';
import { acceptLink, createLinkRouter, linkFromArgv, MAX_LINK_LENGTH } from '../../src-main/electron/install-links.ts';

function fakeApp() {
  const registered: unknown[][] = [];
  const listeners: ((e: { preventDefault(): void }, url: string) => void)[] = [];
  return {
    registered,
    setAsDefaultProtocolClient: (...a: unknown[]) => (registered.push(a), true),
    on: (_ev: 'open-url', fn: (e: { preventDefault(): void }, url: string) => void) => void listeners.push(fn),
    openUrl(url: string): boolean {
      let prevented = false;
      for (const l of listeners) l({ preventDefault: () => (prevented = true) }, url);
      return prevented;
    },
  };
}

const LINK = 'switchboard://install?name=io.github.example/weather';

describe('switchboard:// links in the desktop app', () => {
  it('registers the scheme: the packaged app by itself, a dev checkout as electron + its folder', () => {
    const packaged = fakeApp();
    createLinkRouter({ app: packaged, argv: ['/opt/Switchboard/switchboard-desktop'], defaultApp: false, execPath: '/opt/Switchboard/switchboard-desktop', open: () => {} });
    expect(packaged.registered).toEqual([['switchboard']]);
    const dev = fakeApp();
    createLinkRouter({ app: dev, argv: ['/repo/node_modules/electron/dist/electron', '/repo'], defaultApp: true, execPath: '/repo/node_modules/electron/dist/electron', open: () => {} });
    expect(dev.registered).toEqual([['switchboard', '/repo/node_modules/electron/dist/electron', ['/repo']]]);
  });

  it('holds an open-url that arrives before the window can open, then opens it once', () => {
    const app = fakeApp();
    const opened: string[] = [];
    const r = createLinkRouter({ app, argv: ['Switchboard'], defaultApp: false, execPath: 'Switchboard', open: (l) => void opened.push(l) });
    expect(app.openUrl(LINK)).toBe(true);
    expect(opened).toEqual([]);
    // True: the app shows the link's screen instead of its usual first window.
    expect(r.ready()).toBe(true);
    expect(opened).toEqual([LINK]);
    expect(r.ready()).toBe(false);
    expect(app.openUrl(`${LINK}&version=1.0.0`)).toBe(true);
    expect(opened).toEqual([LINK, `${LINK}&version=1.0.0`]);
  });

  it('takes the link from the first instance\'s command line and from a second instance\'s argv', () => {
    const app = fakeApp();
    const opened: string[] = [];
    const r = createLinkRouter({ app, argv: ['C:\\Program Files\\Switchboard\\Switchboard.exe', '--allow-file-access-from-files', LINK], defaultApp: false, execPath: 'x', open: (l) => void opened.push(l) });
    r.ready();
    expect(opened).toEqual([LINK]);
    expect(r.fromArgv(['Switchboard.exe', '--hidden'])).toBe(false);
    expect(r.fromArgv(['Switchboard.exe', 'SWITCHBOARD://install?name=a'])).toBe(true);
    expect(opened).toEqual([LINK, 'SWITCHBOARD://install?name=a']);
  });

  it('ignores everything that is not a switchboard: link', () => {
    const app = fakeApp();
    const opened: string[] = [];
    const r = createLinkRouter({ app, argv: ['x'], defaultApp: false, execPath: 'x', open: (l) => void opened.push(l) });
    expect(r.ready()).toBe(false);
    for (const bad of ['https://evil.example/?switchboard://install', 'file:///etc/passwd', 'javascript:alert(1)', 'switchboard', `switchboard://install?name=${'a'.repeat(MAX_LINK_LENGTH)}`]) {
      app.openUrl(bad);
      expect(r.fromArgv(['x', bad])).toBe(false);
    }
    expect(opened).toEqual([]);
    expect(acceptLink(42)).toBeNull();
    expect(linkFromArgv(['--home', '/tmp/h', ` ${LINK} `])).toBe(LINK);
  });
});

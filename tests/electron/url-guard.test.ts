import { describe, expect, it } from 'vitest';
import { createUrlGuard, isExternalWebUrl, sameDocumentAs } from '../../src-main/electron/url-guard.ts';

const INDEX = 'file:///opt/Switchboard/resources/app/out/renderer/index.html';

function setup() {
  const opened: string[] = [];
  const guard = createUrlGuard({ isAppUrl: sameDocumentAs(INDEX), openExternal: (u) => void opened.push(u) });
  const nav = (url: string) => {
    let prevented = false;
    guard.onNavigate({ preventDefault: () => (prevented = true) }, url);
    return prevented;
  };
  return { guard, opened, nav };
}

describe('url guard', () => {
  it('does not open file URLs', () => {
    const { guard, opened, nav } = setup();
    expect(nav('file:///etc/passwd')).toBe(true);
    expect(guard.onWindowOpen({ url: 'file:///C:/Windows/system32/calc.exe' })).toEqual({ action: 'deny' });
    expect(opened).toEqual([]);
  });

  it('does not open custom schemes or javascript: URLs', () => {
    const { guard, opened } = setup();
    for (const url of ['javascript:alert(1)', 'smb://host/share', 'ms-msdt:/id', 'not a url']) guard.onWindowOpen({ url });
    expect(opened).toEqual([]);
    expect(isExternalWebUrl('vscode://file/x')).toBe(false);
  });

  it('opens http(s) links in the browser instead of the app window', () => {
    const { guard, opened, nav } = setup();
    expect(nav('https://example.com/docs')).toBe(true);
    expect(guard.onWindowOpen({ url: 'http://127.0.0.1:7777/' })).toEqual({ action: 'deny' });
    expect(opened).toEqual(['https://example.com/docs', 'http://127.0.0.1:7777/']);
  });

  it('lets the window move between its own pages', () => {
    const { opened, nav } = setup();
    expect(nav(`${INDEX}#/runs/abc`)).toBe(false);
    expect(nav('file:///opt/Switchboard/resources/app/out/renderer/other.html')).toBe(true);
    expect(opened).toEqual([]);
  });
});

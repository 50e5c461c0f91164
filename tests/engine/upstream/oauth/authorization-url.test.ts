// Which authorization URLs may reach a browser, and that a refused one never launches anything.
import { mkdtempSync, existsSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkAuthorizationUrl } from '../../../../src-main/engine/upstream/oauth/authorization-url.ts';
import { openBrowser } from '../../../../src-main/engine/upstream/oauth/browser.ts';
import { FAKE_BROWSER } from './helpers.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('checkAuthorizationUrl', () => {
  it('accepts https: anywhere and http: on this machine only', () => {
    expect(checkAuthorizationUrl('https://auth.example.com/authorize?x=1', 's').href).toBe('https://auth.example.com/authorize?x=1');
    for (const u of ['http://127.0.0.1:8080/a', 'http://localhost/a', 'http://[::1]:9/a', 'http://127.5.6.7/a']) {
      expect(checkAuthorizationUrl(u, 's').protocol).toBe('http:');
    }
  });

  it('refuses other schemes and remote http:, naming the problem', () => {
    expect(() => checkAuthorizationUrl('http://auth.example.com/authorize', 's')).toThrow(/uses http:\/\/auth\.example\.com, not https:/);
    expect(() => checkAuthorizationUrl('http://127.0.0.1.evil.example/a', 's')).toThrow(/not https:/);
    expect(() => checkAuthorizationUrl('javascript:alert(1)', 's')).toThrow(/uses javascript:, not https:/);
    expect(() => checkAuthorizationUrl('file:///etc/passwd', 's')).toThrow(/uses file:, not https:/);
    expect(() => checkAuthorizationUrl('data:text/html,hi', 's')).toThrow(/uses data:/);
    expect(() => checkAuthorizationUrl('not a url', 's')).toThrow(/not a valid URL/);
  });
});

describe('openBrowser', () => {
  it('never launches the browser for a refused URL', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sb-browser-'));
    dirs.push(dir);
    const log = path.join(dir, 'launches.log');
    const env = { ...process.env, SWITCHBOARD_BROWSER: FAKE_BROWSER, FAKE_BROWSER_LOG: log };
    await expect(openBrowser(new URL('javascript:alert(1)'), 's', env)).rejects.toThrow(/javascript:/);
    await expect(openBrowser(new URL('file:///etc/passwd'), 's', env)).rejects.toThrow(/file:/);
    await new Promise((r) => setTimeout(r, 300));
    expect(existsSync(log)).toBe(false);
  });

  it('hands the URL to the configured browser as one argument, without a shell', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sb-browser-'));
    dirs.push(dir);
    const log = path.join(dir, 'launches.log');
    // The fake browser fails to fetch this port, but it records its argv first.
    const url = new URL('http://127.0.0.1:9/authorize?a=1&b=$(touch /tmp/x);`id`');
    const r = await openBrowser(url, 's', { ...process.env, SWITCHBOARD_BROWSER: FAKE_BROWSER, FAKE_BROWSER_LOG: log });
    expect(r.opened).toBe(true);
    const { readFileSync } = await import('node:fs');
    for (let i = 0; i < 100 && !existsSync(log); i++) await new Promise((res) => setTimeout(res, 50));
    expect(JSON.parse(readFileSync(log, 'utf8').split('\n')[0]!).argv).toEqual([url.href]);
  });

  it('says why when no browser can be opened', async () => {
    const r = await openBrowser(new URL('https://auth.example.com/a'), 's', { PATH: '' }, 'linux');
    expect(r).toEqual({ opened: false, reason: 'there is no display to open a browser on' });
  });
});

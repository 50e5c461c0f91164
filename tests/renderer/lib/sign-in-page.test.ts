// The renderer's last check before window.open: only https:, or http: on this machine.
import { describe, expect, it } from 'vitest';
import { isOpenableSignInUrl, openSignInPage } from '../../../src-renderer/lib/sign-in-page.ts';

describe('sign-in page URLs', () => {
  it('opens https: and loopback http: addresses', () => {
    for (const url of ['https://auth.example.com/authorize?x=1', 'http://127.0.0.1:4000/authorize', 'http://localhost/a', 'http://[::1]:9/a']) {
      expect(isOpenableSignInUrl(url), url).toBe(true);
    }
  });

  it('never opens javascript:, file:, custom schemes, remote http: or garbage', () => {
    const opened: string[] = [];
    const win = { open: (u?: string | URL) => (opened.push(String(u)), null) };
    for (const url of ['javascript:alert(1)', 'file:///etc/passwd', 'vscode://x', 'http://evil.example/authorize', 'http://127.0.0.1.evil.example/', 'not a url']) {
      expect(openSignInPage(win, url), url).toBe(false);
    }
    expect(opened).toEqual([]);
    expect(openSignInPage(win, 'https://auth.example.com/a')).toBe(true);
    expect(opened).toEqual(['https://auth.example.com/a']);
  });
});

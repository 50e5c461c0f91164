import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY, secureWebPreferences } from '../../src-main/electron/window-options.ts';

const root = path.resolve(import.meta.dirname, '../..');

describe('window security', () => {
  it('isolates and sandboxes the renderer with no Node access', () => {
    expect(secureWebPreferences('/p.cjs')).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInSubFrames: false,
      webviewTag: false,
      webSecurity: true,
    });
  });

  it('sends the same content security policy as the page declares', () => {
    const html = readFileSync(path.join(root, 'src-renderer/index.html'), 'utf8');
    const meta = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html)?.[1];
    expect(meta).toBe(CONTENT_SECURITY_POLICY);
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    expect(CONTENT_SECURITY_POLICY).not.toContain('unsafe-eval');
  });

  it('keeps Electron imports in main.ts and preload.ts, so the rest stays testable', () => {
    const dir = path.join(root, 'src-main/electron');
    const importers = readdirSync(dir).filter((f) => /from 'electron'/.test(readFileSync(path.join(dir, f), 'utf8')));
    expect(importers.sort()).toEqual(['main.ts', 'preload.ts']);
  });

  it('keeps Node and Electron out of the renderer', () => {
    const files: string[] = [];
    const walk = (d: string) => {
      for (const e of readdirSync(d, { withFileTypes: true })) {
        if (e.isDirectory()) walk(path.join(d, e.name));
        else if (/\.(ts|svelte)$/.test(e.name)) files.push(path.join(d, e.name));
      }
    };
    walk(path.join(root, 'src-renderer'));
    expect(files.length).toBeGreaterThan(10);
    const bad = files.filter((f) => /from '(node:[^']+|electron)'/.test(readFileSync(f, 'utf8')));
    expect(bad).toEqual([]);
  });
});

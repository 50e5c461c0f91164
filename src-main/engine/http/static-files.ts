// The UI's static files, from the renderer's build: the app shell for client-side routes, and
// headers that keep the page to itself (CSP, nosniff, no referrer).
import { createReadStream, existsSync, statSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import path from 'node:path';
import { APP_ROOT } from '../platform/app-root.ts';
import { uiBuildFor } from './ui-build.ts';

export const RENDERER_DIR = path.join(APP_ROOT, 'out', 'renderer');

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

/** Answers a GET of `pathname` with a file of the UI's build (building it first in a checkout). */
export function serveStatic(pathname: string, res: ServerResponse): void {
  const rel = pathname === '/' ? 'index.html' : decodeURIComponent(pathname).replace(/^\/+/, '');
  // A checkout builds the UI on first need (ui-build.ts); the packaged app ships it built.
  const building = uiBuildFor(APP_ROOT, RENDERER_DIR, rel);
  if (building) {
    building.then(
      () => staticFile(rel, res),
      (err: unknown) => {
        res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' });
        res.end(`The Switchboard UI could not be built: ${err instanceof Error ? err.message : String(err)}\nRun \`npm run build:renderer\` to see why.\n`);
      },
    );
    return;
  }
  staticFile(rel, res);
}

function staticFile(rel: string, res: ServerResponse): void {
  const file = path.resolve(RENDERER_DIR, rel);
  const inside = file.startsWith(path.resolve(RENDERER_DIR) + path.sep);
  let target = inside && existsSync(file) && statSync(file).isFile() ? file : undefined;
  // Client-side routes fall back to the app shell.
  if (!target && !path.extname(rel)) {
    const index = path.join(RENDERER_DIR, 'index.html');
    if (existsSync(index)) target = index;
  }
  if (!target) {
    if (!existsSync(path.join(RENDERER_DIR, 'index.html'))) {
      res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('The Switchboard UI is not built yet: run `npm run build:renderer` (npm start does it for you).\n');
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
    res.end('Not found\n');
    return;
  }
  res.writeHead(200, {
    'content-type': MIME[path.extname(target)] ?? 'application/octet-stream',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    ...(target.endsWith('.html')
      ? {
          'content-security-policy':
            "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'",
          'cache-control': 'no-store',
        }
      : {}),
  });
  createReadStream(target).pipe(res);
}

// Where a window may go: our own pages stay inside, http(s) links open in the browser, and
// everything else (file:, javascript:, custom schemes) is dropped.
export function isExternalWebUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:';
  } catch {
    return false;
  }
}

export interface UrlGuardOptions {
  /** True for the app's own pages (the renderer's index.html, or the dev server). */
  isAppUrl: (url: string) => boolean;
  openExternal: (url: string) => void | Promise<void>;
}

export interface PreventableEvent {
  preventDefault(): void;
}

export interface UrlGuard {
  /** For `will-navigate` / `will-redirect`: stay on our pages; send web links to the browser. */
  onNavigate(event: PreventableEvent, url: string): void;
  /** For `setWindowOpenHandler`: never a new Electron window. */
  onWindowOpen(details: { url: string }): { action: 'deny' };
}

export function createUrlGuard(opts: UrlGuardOptions): UrlGuard {
  const openOutside = (url: string) => {
    if (isExternalWebUrl(url)) void opts.openExternal(url);
  };
  return {
    onNavigate(event, url) {
      if (opts.isAppUrl(url)) return;
      event.preventDefault();
      openOutside(url);
    },
    onWindowOpen({ url }) {
      openOutside(url);
      return { action: 'deny' };
    },
  };
}

/** Our pages: the same file (any hash or query) as the index the window loaded. */
export function sameDocumentAs(indexUrl: string): (url: string) => boolean {
  const base = new URL(indexUrl);
  return (url) => {
    try {
      const u = new URL(url);
      return u.protocol === base.protocol && u.host === base.host && u.pathname === base.pathname;
    } catch {
      return false;
    }
  };
}

// switchboard:// install links reaching the desktop app: the OS hands them over as an `open-url`
// event (macOS, also before the app is ready) or on the command line of a second instance
// (Windows, Linux) or of the first one. Each link only opens the Catalog page's approval screen
// for it; the page shows exactly what would run and nothing is added without the user's yes.
// The Electron surface is injected so this is testable without Electron.

export const LINK_SCHEME = 'switchboard';

/** Longer than any real link (a base64 entry is a few hundred bytes); refuses pasted junk. */
export const MAX_LINK_LENGTH = 16_384;

export interface LinkAppSurface {
  setAsDefaultProtocolClient(protocol: string, path?: string, args?: string[]): boolean;
  on(event: 'open-url', listener: (event: { preventDefault(): void }, url: string) => void): unknown;
}

export interface LinkRouterOptions {
  app: LinkAppSurface;
  /** process.argv of this instance (a cold start on Windows/Linux carries the link there). */
  argv: readonly string[];
  /** process.defaultApp: true when run as `electron path/to/app` (a dev checkout). */
  defaultApp: boolean;
  execPath: string;
  /** Opens the approval screen for the link (the Catalog page, #/catalog/<link>). */
  open(link: string): void;
}

export interface LinkRouter {
  /** Call once the window can be opened: links that arrived earlier are opened then. True when there were any. */
  ready(): boolean;
  /** second-instance's argv; true when it carried a link (then no other window is needed). */
  fromArgv(argv: readonly string[]): boolean;
}

/** A usable switchboard:// link, or null for anything else (other schemes, junk, too long). */
export function acceptLink(candidate: unknown): string | null {
  if (typeof candidate !== 'string') return null;
  const s = candidate.trim();
  if (s.length === 0 || s.length > MAX_LINK_LENGTH) return null;
  if (!s.toLowerCase().startsWith(`${LINK_SCHEME}:`)) return null;
  try {
    return new URL(s).protocol === `${LINK_SCHEME}:` ? s : null;
  } catch {
    return null;
  }
}

/** The first switchboard:// link on a command line (Windows and Linux pass it as an argument). */
export function linkFromArgv(argv: readonly string[]): string | null {
  for (const a of argv) {
    const link = acceptLink(a);
    if (link) return link;
  }
  return null;
}

export function createLinkRouter(o: LinkRouterOptions): LinkRouter {
  let isReady = false;
  const pending: string[] = [];
  const deliver = (link: string | null): boolean => {
    if (!link) return false;
    if (isReady) o.open(link);
    else pending.push(link);
    return true;
  };
  // A dev checkout runs as `electron <app dir>`: the OS must start it the same way.
  if (o.defaultApp) {
    const appPath = o.argv[1];
    o.app.setAsDefaultProtocolClient(LINK_SCHEME, o.execPath, appPath ? [appPath] : []);
  } else {
    o.app.setAsDefaultProtocolClient(LINK_SCHEME);
  }
  o.app.on('open-url', (event, url) => {
    event.preventDefault();
    deliver(acceptLink(url));
  });
  deliver(linkFromArgv(o.argv));
  return {
    ready() {
      isReady = true;
      const waiting = pending.splice(0);
      for (const link of waiting) o.open(link);
      return waiting.length > 0;
    },
    fromArgv(argv) {
      return deliver(linkFromArgv(argv));
    },
  };
}

// Opens a remote server's sign-in page in a new tab (serve) or the system browser (desktop app:
// main routes window.open to shell.openExternal). The engine only hands out https: or loopback
// http: URLs; checking again here keeps a javascript: or file: URL from ever reaching window.open.

/** Whether `url` may be opened as a sign-in page: https:, or http: on this machine. */
export function isOpenableSignInUrl(url: string): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  if (u.protocol === 'https:') return true;
  if (u.protocol !== 'http:') return false;
  const host = u.hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** Opens the page; false when the URL is refused. A blocked pop-up still counts as opened: the page shows a link too. */
export function openSignInPage(win: { open(url: string, target: string, features: string): unknown }, url: string): boolean {
  if (!isOpenableSignInUrl(url)) return false;
  // noopener: the server's page gets no handle on this window (and no Referer with our address).
  win.open(url, '_blank', 'noopener,noreferrer');
  return true;
}

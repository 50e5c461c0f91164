// Which authorization URLs may be shown to a browser. A malicious server controls the URL it
// advertises; handing an unchecked one to the OS opener is how CVE-2025-6514 ran commands, so
// only https: (and http: on this machine, for local servers) is ever opened.
import { isIP } from 'node:net';
import { SwitchboardError } from '../../../../src-shared/errors.ts';

export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host === '::1') return true;
  return isIP(host) === 4 && host.startsWith('127.');
}

/** Parses and checks an authorization URL; throws a SwitchboardError naming the problem. */
export function checkAuthorizationUrl(value: string | URL, server: string): URL {
  let url: URL;
  try {
    url = new URL(String(value));
  } catch {
    throw new SwitchboardError('upstream-error', `The sign-in address of ${server} is not a valid URL, so it was not opened.`);
  }
  if (url.protocol === 'https:') return url;
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return url;
  const shown = url.protocol === 'http:' ? `http://${url.host}` : url.protocol;
  throw new SwitchboardError(
    'upstream-error',
    `The sign-in address of ${server} uses ${shown}, not https:, so Switchboard did not open it and stored nothing.`,
  );
}

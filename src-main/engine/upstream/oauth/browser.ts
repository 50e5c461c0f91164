// Opens a checked authorization URL in the user's browser, with an argument array and never a
// shell, so nothing in the URL is ever interpreted as a command.
// SWITCHBOARD_BROWSER=<program> replaces the system browser (tests drive consent with it; a user
// may name their browser). The program gets the URL as its only argument.
import { spawn } from 'node:child_process';
import { checkAuthorizationUrl } from './authorization-url.ts';

export interface OpenResult {
  opened: boolean;
  /** Why no browser was opened, for the message around the printed URL. */
  reason?: string;
}

function opener(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): { command: string; args: string[] } | undefined {
  if (env.SWITCHBOARD_BROWSER) return { command: env.SWITCHBOARD_BROWSER, args: [] };
  if (platform === 'darwin') return { command: 'open', args: [] };
  // rundll32 hands the URL to the registered handler without cmd.exe (`start` needs a shell).
  if (platform === 'win32') return { command: 'rundll32', args: ['url.dll,FileProtocolHandler'] };
  if (!env.DISPLAY && !env.WAYLAND_DISPLAY) return undefined;
  return { command: 'xdg-open', args: [] };
}

/** Opens `url` after checking it again; `env` picks the opener and is the browser's environment. */
export async function openBrowser(url: URL, server: string, env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): Promise<OpenResult> {
  // Checked again here so no caller can open an unchecked URL by mistake.
  const checked = checkAuthorizationUrl(url, server);
  const how = opener(platform, env);
  if (!how) return { opened: false, reason: 'there is no display to open a browser on' };
  return new Promise((resolve) => {
    const child = spawn(how.command, [...how.args, checked.href], { stdio: 'ignore', detached: true, shell: false, env });
    child.once('error', (err) => resolve({ opened: false, reason: `${how.command} could not be started (${(err as NodeJS.ErrnoException).code ?? err.message})` }));
    child.once('spawn', () => {
      child.unref();
      resolve({ opened: true });
    });
  });
}

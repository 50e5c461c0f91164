// What every page needs, handed down through Svelte context rather than module globals.
import { getContext, setContext } from 'svelte';
import type { ControlClient } from '../../src-shared/api.ts';
import type { StatusPoller } from './status.svelte.ts';
import type { Theme } from './theme.svelte.ts';
import type { Router } from './router.svelte.ts';
import type { PlaygroundDraft } from './playground-draft.svelte.ts';

export interface AppContext {
  client: ControlClient;
  status: StatusPoller;
  theme: Theme;
  router: Router;
  draft: PlaygroundDraft;
  /** Inside the desktop app (Electron), where main can start the engine again; else a browser page of `serve`. */
  desktop: boolean;
  /** Desktop only: asks the app to start its engine again now. */
  restartEngine?: () => Promise<void>;
  /** Desktop only: shows a client's settings file in the system's file manager. */
  revealClientFile?: (client: string) => Promise<void>;
}

const KEY = Symbol('switchboard');
export const setApp = (ctx: AppContext): AppContext => setContext(KEY, ctx);
export const getApp = (): AppContext => getContext<AppContext>(KEY);

// What the desktop app says about its own updates, shared by Electron main (tray,
// notification) and the renderer (the notice in the window), so both use the same words.

/** Update channels a user can choose in Settings (config.json `settings.updateChannel`). */
export const UPDATE_CHANNELS = ['stable', 'beta'] as const;
export type UpdateChannel = (typeof UPDATE_CHANNELS)[number];

/** The app's update state, as main reports it to the window. */
export type UpdateNotice =
  /** A development checkout or a build that cannot update itself: nothing is ever checked. */
  | { state: 'unsupported' }
  /** Settings turned update checks off. */
  | { state: 'off' }
  /** Nothing to do now (up to date, or the last check failed and will be retried quietly). */
  | { state: 'idle' }
  /** A newer version is being downloaded in the background. */
  | { state: 'downloading'; version: string; percent: number }
  /** A newer version is downloaded: "Restart to update". */
  | { state: 'ready'; version: string }
  /** The user chose to restart; the new version's engine takes over from this one. */
  | { state: 'restarting'; version: string };

/** The sentence the tray, the notification and the window show for a downloaded update. */
export function readySentence(version: string): string {
  return `Switchboard ${version} is ready — restart to use it`;
}

/** The button and tray item that installs it. */
export const RESTART_TO_UPDATE = 'Restart to update';

// The desktop app's own command line: `Switchboard [--hidden] [--home DIR]`. The packaged shim
// starts the app this way when no engine runs (src-main/shim/engine-launch.mjs), and a login
// item starts it with --hidden. Electron and Chromium add switches of their own; those are ignored.

export interface LaunchArgs {
  /** Start in the tray with no window. */
  hidden: boolean;
  /** The Switchboard home for the engine; undefined means the default home. */
  home?: string;
}

export function parseLaunchArgs(argv: readonly string[]): LaunchArgs {
  const out: LaunchArgs = { hidden: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--hidden') out.hidden = true;
    else if (a === '--home' && argv[i + 1] !== undefined) out.home = argv[++i];
    else if (a.startsWith('--home=')) out.home = a.slice('--home='.length);
  }
  return out;
}

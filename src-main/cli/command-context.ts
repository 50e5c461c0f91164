// What a CLI command gets from the dispatcher (main.ts). Commands print through it and never
// touch process.* directly, so tests can run them in-process against a temp home.
import type { ShimEntry } from '../engine/platform/shim-entry.ts';

export interface CliContext {
  /** The resolved Switchboard home (docs/command-line.md). */
  home: string;
  /** True when no --home / $SWITCHBOARD_HOME was given; client entries then omit --home. */
  homeIsDefault: boolean;
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  /** The environment client paths are resolved from ($HOME, %APPDATA%, $XDG_CONFIG_HOME, PATH). */
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
  /** The MCP server entry that launches the shim for a profile (see defaultShimEntry). */
  shimEntry(profile: string): ShimEntry;
  /** Profile names from the current config (for "unknown profile" errors). */
  profiles(): Promise<string[]>;
}

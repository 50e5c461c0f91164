// The in-process CliContext the catalog commands run with in tests: output collected, config.json
// edited straight in the temp home (no engine), client-only operations unused.
import type { CliContext } from '../../../src-main/cli/context.ts';

export function catalogContext(home: string, env: NodeJS.ProcessEnv, write: (s: string) => void, platform: NodeJS.Platform = 'linux'): CliContext {
  return {
    home,
    homeIsDefault: false,
    stdout: write,
    stderr: write,
    env,
    platform,
    shimEntry: () => ({ command: 'unused', args: [] }),
    profiles: async () => [],
    addServers: async () => undefined,
    addProfile: async () => undefined,
  };
}

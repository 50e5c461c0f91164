// The in-process CliContext the catalog commands run with in tests: output collected, config.json
// edited straight in the temp home (no engine), client-only operations unused.
import { toErrorData, type ErrorData } from '../../../src-shared/errors.ts';
import type { CliContext } from '../../../src-main/cli/command-context.ts';

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
  };
}

/** The error a command failed with (code and message); throws if it did not fail. */
export async function failure(p: Promise<number>): Promise<ErrorData> {
  try {
    await p;
  } catch (err) {
    return toErrorData(err);
  }
  throw new Error('expected the command to fail');
}

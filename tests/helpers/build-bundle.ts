// Vitest's global setup: the tests start real CLIs and engines (node bin/switchboard.mjs …), which
// run out/bundle. Built once here, before any test file runs, rather than by whichever CLI comes
// first (a clean clone has none; a checkout's is stale after an edit).
import { ensureBundle } from '../../scripts/bundle.mjs';

export default async function setup(): Promise<void> {
  await ensureBundle();
}

// Where the UI suite saves its screenshots. docs/screenshots (committed, shown in README) only
// when asked for with `npm run screenshots`, which sets SWITCHBOARD_UPDATE_SCREENSHOTS=1;
// otherwise test-results/screenshots (git-ignored), so `npm test` leaves the work tree clean.
import path from 'node:path';
import { UPDATE_SCREENSHOTS_ENV } from '../../scripts/test.mjs';

export { UPDATE_SCREENSHOTS_ENV };
export const ROOT = path.resolve(import.meta.dirname, '../..');
export const DOCS_SCREENSHOTS = path.join(ROOT, 'docs/screenshots');

export function screenshotDir(env: NodeJS.ProcessEnv = process.env): string {
  return env[UPDATE_SCREENSHOTS_ENV] === '1' ? DOCS_SCREENSHOTS : path.join(ROOT, 'test-results/screenshots');
}

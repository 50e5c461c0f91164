// "Test connection" before saving a server: start it with the proposed config, list its tools,
// stop it. Nothing is written anywhere but a scratch log.
import { ServerConfig } from '../../../src-shared/config/schema.ts';
import { Upstream } from './server-connection.ts';

/** How long a test may take before it is called a failure, in ms. */
const TEST_TIMEOUT_MS = 15_000;

export async function testServerConnection(
  config: unknown,
  opts: { logsDir: string; resolveSecret?: (name: string) => string | undefined; timeoutMs?: number },
): Promise<{ ok: boolean; tools: string[]; error?: string }> {
  const parsed = ServerConfig.safeParse(config);
  if (!parsed.success) {
    return { ok: false, tools: [], error: parsed.error.issues.map((i) => `${i.path.join('.') || 'server'}: ${i.message}`).join('; ') };
  }
  const up = new Upstream('connection-test', parsed.data, {
    logsDir: opts.logsDir,
    resolveSecret: opts.resolveSecret,
    maxFailedStarts: 1,
    startTimeoutMs: opts.timeoutMs ?? TEST_TIMEOUT_MS,
  });
  try {
    up.start();
    await up.waitReady(opts.timeoutMs ?? TEST_TIMEOUT_MS);
    return { ok: true, tools: up.tools().map((t) => t.name) };
  } catch (err) {
    return { ok: false, tools: [], error: up.lastError ?? (err instanceof Error ? err.message : String(err)) };
  } finally {
    await up.dispose();
  }
}

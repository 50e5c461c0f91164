// The values to redact from records and server logs: stored secrets, and token-like plain values
// of the servers' env and headers in config.json.
import type { SwitchboardConfig } from '../../../src-shared/config/schema.ts';
import { tokenLikeValues } from '../records/redact.ts';
import type { SecretStore } from './secret-store.ts';

/** Asked for every record written, so derived once per (secrets file, config) version. */
export function secretValuesOf(secrets: Pick<SecretStore, 'values'>, config: () => SwitchboardConfig): () => string[] {
  let cache: { stored: string[]; config: SwitchboardConfig; out: string[] } | undefined;
  return () => {
    const stored = secrets.values();
    const cfg = config();
    if (cache && cache.stored === stored && cache.config === cfg) return cache.out;
    const out = [...stored];
    const plain = (m: Record<string, unknown> | undefined) =>
      Object.fromEntries(Object.entries(m ?? {}).filter((e): e is [string, string] => typeof e[1] === 'string'));
    for (const s of Object.values(cfg.servers)) out.push(...tokenLikeValues(plain(s.env)), ...tokenLikeValues(plain(s.headers)));
    cache = { stored, config: cfg, out };
    return out;
  };
}

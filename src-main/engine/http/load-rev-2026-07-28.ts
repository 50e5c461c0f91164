// Loads the 2026-07-28 side of the HTTP server on the first POST that needs it: the stateless
// endpoint (endpoint-2026-07-28.ts), once the gateway's side of that era is loaded
// (gateway/load-rev-2026-07-28.ts), since the endpoint's per-request sessions are made from it.
import { loadRev20260728 as loadGatewayEra } from '../gateway/load-rev-2026-07-28.ts';

export async function loadRev20260728(): Promise<typeof import('./endpoint-2026-07-28.ts')> {
  await loadGatewayEra();
  return import('./endpoint-2026-07-28.ts');
}

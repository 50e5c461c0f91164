// Loads the 2026-07-28 side of the HTTP server on the first POST that needs it: the stateless
// endpoint (modern-endpoint.ts), once the gateway's side of that era is loaded
// (gateway/load-modern.ts), since the endpoint's per-request sessions are made from it.
import { loadModernEra as loadGatewayEra } from '../gateway/load-modern.ts';

export async function loadModernEra(): Promise<typeof import('./modern-endpoint.ts')> {
  await loadGatewayEra();
  return import('./modern-endpoint.ts');
}

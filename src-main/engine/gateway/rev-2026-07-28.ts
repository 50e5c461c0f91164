// The 2026-07-28 side of the gateway, in one module loaded when a first client needs it
// (load-rev-2026-07-28.ts): a Rev20260728Session and the SDK's stdio entry that tells the eras apart on the
// shim's socket; the stateless HTTP endpoint loads after it (http/load-rev-2026-07-28.ts). They bring the
// v2 server SDK (~2.7 MB of heap, ~60 ms to load here), which a 2025 client opening with
// initialize on the shim's socket never needs: the engine's start and its idle memory do without
// it.
export { Rev20260728Session } from './session-2026-07-28.ts';
export { serveStdio } from '@modelcontextprotocol/server/stdio';


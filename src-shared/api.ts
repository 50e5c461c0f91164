// The control API: everything the CLI and the UI ask of the engine, defined once.
// Carried as JSON over the engine socket (`control` connections), under `/api/` on the HTTP
// server (POST /api/<method> with the params as the body), and over Electron IPC.
//
// The contract is split by area under api/; this file gathers it, so importers name one module.
export * from './api/status.ts';
export * from './api/code-runs.ts';
export * from './api/clients.ts';
export * from './api/catalog.ts';
export * from './api/methods.ts';
export * from './api/socket.ts';

// Worker threads do not inherit the tsx loader of the engine, so register it here before
// loading the TypeScript worker.
import { register } from 'tsx/esm/api';

register();
await import('./sandbox-worker.ts');

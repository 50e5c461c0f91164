// Builds the Electron side into out/electron: main.js and engine-entry.js (ESM, run by Electron's
// Node), then, with `--mode preload`, preload.cjs (one self-contained CommonJS file, as sandboxed
// preloads can require nothing but 'electron').
// Run: npx vite build --config src-main/electron/vite.build.config.ts
//      npx vite build --config src-main/electron/vite.build.config.ts --mode preload
import { builtinModules } from 'node:module';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const at = (p: string) => fileURLToPath(new URL(`../../${p}`, import.meta.url));
const engineEntry = at('src-main/engine/entry.ts');
const external = ['electron', ...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

export default defineConfig(({ mode }) => {
  const preload = mode === 'preload';
  const input: Record<string, string> = preload
    ? { preload: at('src-main/electron/preload.ts') }
    : { main: at('src-main/electron/main.ts'), ...(existsSync(engineEntry) ? { 'engine-entry': engineEntry } : {}) };
  return {
    root: at('.'),
    publicDir: false,
    build: {
      outDir: at('out/electron'),
      // The preload pass adds one file beside the main pass's output.
      emptyOutDir: !preload,
      target: 'node22',
      minify: false,
      sourcemap: true,
      ssr: true,
      rollupOptions: {
        external,
        input,
        output: preload
          ? { format: 'cjs', entryFileNames: '[name].cjs', inlineDynamicImports: true }
          : { format: 'es', entryFileNames: '[name].js', chunkFileNames: 'chunks/[name]-[hash].js' },
      },
    },
    ssr: { noExternal: true },
  };
});

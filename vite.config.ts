// The renderer build: src-renderer → out/renderer, loaded by Electron (file://) and by serve (/).
import { defineConfig } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { fileURLToPath } from 'node:url';

export default defineConfig({
  root: fileURLToPath(new URL('./src-renderer', import.meta.url)),
  // Relative asset URLs so the same files work from file:// and from any HTTP path.
  base: './',
  plugins: [svelte()],
  build: {
    outDir: fileURLToPath(new URL('./out/renderer', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
  },
});

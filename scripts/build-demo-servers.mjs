// @ts-check
// Bundles the reference MCP servers of the first-run demo (docs/command-line.md) into one self-contained
// CommonJS file each, for the packaged app: there the servers run under the shim binary
// (`switchboard node out/demo-servers/<name>.cjs …`, see src-main/shim/sea-main.mjs), because the
// Electron binary cannot act as node with the runAsNode fuse off (electron-builder.yml).
//
//   node scripts/build-demo-servers.mjs [--out DIR]
//
// Default output: out/demo-servers/<name>.cjs, plus out/demo-servers/<name>/ for servers that
// read files of their own package at run time. electron-builder.yml unpacks the folder from
// app.asar, since the shim binary is plain Node and cannot read inside an asar.
import { cpSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(path.join(ROOT, 'package.json'));

/**
 * @typedef {object} DemoServer
 * @property {string} name  the bundle's base name (default-config.ts looks for <name>.cjs)
 * @property {string} entry  the package's bin script, as a module specifier
 * @property {string[]} [assets]  folders beside the entry, read at run time through import.meta.url
 */

/** @type {DemoServer[]} */
export const DEMO_SERVERS = [
  { name: 'everything', entry: '@modelcontextprotocol/server-everything/dist/index.js', assets: ['docs'] },
  { name: 'memory', entry: '@modelcontextprotocol/server-memory/dist/index.js' },
  { name: 'filesystem', entry: '@modelcontextprotocol/server-filesystem/dist/index.js' },
];

/** Stands in for import.meta.url, which esbuild leaves empty in CommonJS output. */
const META_URL = '__switchboardImportMetaUrl';

/**
 * The bundle answers import.meta.url with a file inside <name>/dist/, so that a package's
 * `join(dirname(fileURLToPath(import.meta.url)), '..', 'docs')` finds the copied <name>/docs.
 * Every module of a bundle shares this one URL; the servers only look one level up from dist.
 * @param {string} name
 */
function metaUrlBanner(name) {
  return `const ${META_URL} = require("node:url").pathToFileURL(require("node:path").join(__dirname, ${JSON.stringify(name)}, "dist", "index.js")).href;`;
}

/**
 * Lets an ESM bundle reach Node's builtins through require() instead of import statements, so
 * that the bundle has no import statement left and its body can run inside a function.
 * @type {import('esbuild').Plugin}
 */
const builtinsThroughRequire = {
  name: 'builtins-through-require',
  setup(build) {
    const builtins = new Set(builtinModules);
    build.onResolve({ filter: /^(node:)?[a-z0-9_/]+$/ }, (args) => {
      if (args.kind !== 'import-statement' && args.kind !== 'dynamic-import') return undefined;
      if (!builtins.has(args.path.replace(/^node:/, ''))) return undefined;
      return { path: args.path, namespace: 'builtin' };
    });
    build.onLoad({ filter: /.*/, namespace: 'builtin' }, (args) => ({ contents: `module.exports = require(${JSON.stringify(args.path)});`, loader: 'js' }));
  },
};

/**
 * Two steps, because servers await at top level (everything's launcher, filesystem's argument
 * checks), which CommonJS output cannot hold:
 * esbuild bundles the server as ESM (one module scope, top-level await kept, no imports left),
 * then runs that scope inside an async function and emits CommonJS.
 * @param {typeof import('esbuild')} esbuild
 * @param {DemoServer} server
 * @param {string} file
 */
async function bundleServer(esbuild, server, file) {
  const entry = require.resolve(server.entry);
  const common = { platform: /** @type {const} */ ('node'), target: 'node20', legalComments: /** @type {const} */ ('none'), logLevel: /** @type {const} */ ('warning') };
  const esm = await esbuild.build({
    ...common,
    // Importing the entry for its effects keeps its own exports out of the bundle.
    stdin: { contents: `import ${JSON.stringify(entry)};`, resolveDir: ROOT, sourcefile: `${server.name}-entry.mjs`, loader: 'js' },
    bundle: true,
    format: 'esm',
    write: false,
    plugins: [builtinsThroughRequire],
    define: { 'import.meta.url': META_URL },
  });
  const body = esm.outputFiles[0]?.text ?? '';
  await esbuild.build({
    ...common,
    stdin: { contents: `(async () => {\n${body}\n})().catch((error) => {\n  console.error(error);\n  process.exit(1);\n});\n`, resolveDir: ROOT, sourcefile: `${server.name}.cjs`, loader: 'js' },
    outfile: file,
    format: 'cjs',
    banner: { js: metaUrlBanner(server.name) },
  });
  for (const folder of server.assets ?? []) {
    cpSync(path.join(path.dirname(entry), folder), path.join(path.dirname(file), server.name, folder), { recursive: true });
  }
}

/**
 * @param {{ outDir?: string, log?: (line: string) => void }} [opts]
 * @returns {Promise<{ outDir: string, bundles: { name: string, file: string, bytes: number }[] }>}
 */
export async function buildDemoServers(opts = {}) {
  const log = opts.log ?? ((line) => process.stdout.write(line + '\n'));
  const outDir = path.resolve(opts.outDir ?? path.join(ROOT, 'out', 'demo-servers'));
  const esbuild = await import('esbuild');
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const bundles = [];
  for (const server of DEMO_SERVERS) {
    const file = path.join(outDir, `${server.name}.cjs`);
    await bundleServer(esbuild, server, file);
    const bytes = statSync(file).size;
    bundles.push({ name: server.name, file, bytes });
    log(`build-demo-servers: ${file} (${(bytes / 1e3).toFixed(1)} kB)`);
  }
  return { outDir, bundles };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const i = process.argv.indexOf('--out');
  const outDir = i >= 0 ? process.argv[i + 1] : undefined;
  if (i >= 0 && !outDir) {
    process.stderr.write('usage: node scripts/build-demo-servers.mjs [--out DIR]\n');
    process.exit(2);
  }
  buildDemoServers({ outDir }).catch((err) => {
    process.stderr.write(`build-demo-servers: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}

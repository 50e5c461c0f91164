// @ts-check
// Entry of the packaged shim, a Node single-executable application that MCP clients launch
// (`switchboard shim --profile P [--home D]`), built by scripts/build-shim-sea.mjs. It carries
// the shim only: the rest of the command line needs the engine's code, which ships in the app.
// It also runs the demo's reference servers (`switchboard node SERVER.cjs …`, bundled by
// scripts/build-demo-servers.mjs), since the app's own binary cannot act as node.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import pkg from '../../package.json' with { type: 'json' };
import { runShim } from './shim.mjs';

const [command, ...rest] = process.argv.slice(2);
// No top-level await: a SEA main script is CommonJS in Node 20.
if (command === 'shim') {
  runShim(rest).catch((err) => {
    process.stderr.write(`switchboard shim: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(2);
  });
} else if (command === 'node') {
  runScript(rest);
} else if (command === '--version' || command === 'version') {
  process.stdout.write(`switchboard shim ${pkg.version} (node ${process.version})\n`);
} else {
  process.stderr.write(
    'This is the Switchboard shim that MCP clients start: switchboard shim --profile NAME [--home DIR].\n' +
      'Other commands (status, connect, runs, …) are in the Switchboard app: open it from its tray icon.\n',
  );
  process.exitCode = 2;
}

/**
 * Runs a CommonJS script from disk as if by `node SCRIPT ARGS…`. A SEA's own require loads
 * builtins only, so the script goes through a require made for its path, which also resolves
 * anything the script requires beside it. CommonJS only (what build-demo-servers.mjs makes),
 * since require cannot load ESM in Node 20. Unlike node, require.main is not the script; the
 * demo bundles never look.
 * @param {string[]} args
 */
function runScript(args) {
  const [script, ...scriptArgs] = args;
  if (!script || !script.endsWith('.cjs')) {
    process.stderr.write(
      `switchboard node: ${script ? `cannot run ${script}: ` : ''}give the path of a CommonJS script ending in .cjs, as in: switchboard node SERVER.cjs [ARGS…]\n`,
    );
    process.exitCode = 2;
    return;
  }
  const file = path.resolve(script);
  if (!existsSync(file)) {
    process.stderr.write(`switchboard node: ${file} does not exist; reinstall Switchboard if it is one of the app's files.\n`);
    process.exitCode = 2;
    return;
  }
  process.argv = [process.execPath, file, ...scriptArgs];
  createRequire(file)(file);
}

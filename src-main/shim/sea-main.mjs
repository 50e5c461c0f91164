// @ts-check
// Entry of the packaged shim, a Node single-executable application that MCP clients launch
// (`switchboard shim --profile P [--home D]`), built by scripts/build-shim-sea.mjs. It carries
// the shim only: the rest of the command line needs the engine's code, which ships in the app.
// It is also the Node the app carries (`switchboard node SCRIPT …`): the demo's reference servers
// (bundled by scripts/build-demo-servers.mjs), and `npx`/`node` servers on a computer without
// Node (the engine lends it, see src-main/engine/upstream/carried-runtime.ts), since the app's
// own binary cannot act as node.
import { existsSync } from 'node:fs';
import Module from 'node:module';
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
} else if (command && /\.[cm]?js$/.test(command) && existsSync(command)) {
  // Programs that start `process.execPath SCRIPT` (npm does for its own helpers) take this binary for node.
  runScript([command, ...rest]);
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
 * Runs a script from disk as `node SCRIPT ARGS…` does: Node's own entry loader (Module.runMain)
 * takes the script as the main module, CommonJS or ES module alike (a SEA's own require loads
 * builtins only and cannot import), and resolves what it loads from its own folder.
 * @param {string[]} args
 */
function runScript(args) {
  const [script, ...scriptArgs] = args;
  if (!script || script.startsWith('-')) {
    process.stderr.write(
      `switchboard node: ${script ? `Node options such as ${script} are not taken here: ` : ''}give the path of a script, as in: switchboard node SERVER.js [ARGS…]\n`,
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
  /** @type {{ runMain(main?: string): void }} */ (/** @type {unknown} */ (Module)).runMain(file);
}

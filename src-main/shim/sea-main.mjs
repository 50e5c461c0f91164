// @ts-check
// Entry of the packaged shim, a Node single-executable application that MCP clients launch
// (`switchboard shim --profile P [--home D]`), built by scripts/build-shim-sea.mjs. It carries
// the shim only: the rest of the command line needs the engine's code, which ships in the app.
import pkg from '../../package.json' with { type: 'json' };
import { runShim } from './shim.mjs';

const [command, ...rest] = process.argv.slice(2);
// No top-level await: a SEA main script is CommonJS in Node 20.
if (command === 'shim') {
  runShim(rest).catch((err) => {
    process.stderr.write(`switchboard shim: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(2);
  });
} else if (command === '--version' || command === 'version') {
  process.stdout.write(`switchboard shim ${pkg.version} (node ${process.version})\n`);
} else {
  process.stderr.write(
    'This is the Switchboard shim that MCP clients start: switchboard shim --profile NAME [--home DIR].\n' +
      'Other commands (status, connect, runs, …) are in the Switchboard app: open it from its tray icon.\n',
  );
  process.exitCode = 2;
}

#!/usr/bin/env node
// Entry point of the `switchboard` command. The shim is plain JavaScript so that it starts in
// tens of milliseconds; everything else is TypeScript loaded through tsx.
const command = process.argv[2];
if (command === 'shim') {
  const { runShim } = await import('../src-main/shim/shim.mjs');
  await runShim(process.argv.slice(3));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  const { main } = await import('../src-main/cli/main.ts');
  process.exitCode = await main(process.argv.slice(2));
}

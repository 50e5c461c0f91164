// @ts-check
// The signals that stop a long-running command (the engine, `serve`): a service manager or an
// app quitting (SIGTERM), a log-out (SIGHUP), Ctrl-C (SIGINT). They are caught from the command's
// first moment (bin/switchboard.mjs, before the bundle is built or loaded), because a process
// that has a listener for a signal no longer dies of it: whoever listens must stop the process.
// Until the command says how to stop (onStopSignal), nothing is owned yet and a signal ends the
// process as it would have without a listener; from then on it goes to the command, once.
//
// The state lives on globalThis: bin/switchboard.mjs loads this file as itself, and the command
// runs from a bundle holding its own copy of it.

/** @typedef {'SIGTERM' | 'SIGINT' | 'SIGHUP'} StopSignal */
/** @type {StopSignal[]} */
export const STOP_SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'];

/** @typedef {{ received?: StopSignal, stop?: (signal: StopSignal) => void, listener: (signal: NodeJS.Signals) => void }} StopState */

const KEY = Symbol.for('switchboard.stopSignals');

/** @returns {StopState} */
function state() {
  const g = /** @type {Record<symbol, StopState | undefined>} */ (/** @type {unknown} */ (globalThis));
  let s = g[KEY];
  if (!s) {
    /** @type {StopState} */
    const fresh = {
      listener: (sig) => {
        if (fresh.received) return;
        const signal = /** @type {StopSignal} */ (sig);
        fresh.received = signal;
        if (fresh.stop) fresh.stop(signal);
        else dieOf(signal);
      },
    };
    s = g[KEY] = fresh;
  }
  return s;
}

/** Listens for the stop signals (again calls are harmless). */
export function catchStopSignals() {
  const s = state();
  for (const sig of STOP_SIGNALS) if (!process.listeners(sig).includes(s.listener)) process.on(sig, s.listener);
}

/**
 * From now on a stop signal calls `stop` (once, whichever signal comes first); one that came
 * before is handed over at once. Catches the signals if that was not done yet.
 * @param {(signal: StopSignal) => void} stop
 */
export function onStopSignal(stop) {
  catchStopSignals();
  const s = state();
  s.stop = stop;
  if (s.received) stop(s.received);
}

/**
 * How long a stopped engine may take to go, in ms: past it the process exits whatever still hangs
 * (the servers' process groups are killed on exit; stdio-transport.ts). Under the desktop app's
 * 5 s wait for its engine to exit.
 */
export const STOP_DEADLINE_MS = 4000;

/**
 * Aborted by the first stop signal; from that signal on the process is gone within
 * STOP_DEADLINE_MS, however its stop goes.
 * @returns {AbortSignal}
 */
export function stopSignal() {
  const ctrl = new AbortController();
  onStopSignal(() => {
    setTimeout(() => process.exit(0), STOP_DEADLINE_MS).unref();
    ctrl.abort();
  });
  return ctrl.signal;
}

/**
 * Ends the process by `signal` itself, as if nobody had listened (its parent sees the signal).
 * @param {StopSignal} signal
 */
function dieOf(signal) {
  const s = state();
  for (const sig of STOP_SIGNALS) process.removeListener(sig, s.listener);
  process.kill(process.pid, signal);
  // Delivery to ourselves is not instant everywhere (Windows has no signals): exit as a shell would report it.
  process.exit(128 + (signal === 'SIGHUP' ? 1 : signal === 'SIGINT' ? 2 : 15));
}

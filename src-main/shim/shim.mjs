// @ts-check
// `switchboard shim --profile P [--home D] [--client ID]`: a stdio MCP server for one client, relayed as bytes
// to the engine over its local socket. Plain JavaScript with no dependencies so that it starts
// in tens of milliseconds (tsx alone costs ~200 ms here); the engine does the MCP work.
//
// The shim reads just enough of the traffic to survive an engine restart: the client's
// `initialize` (replayed on reconnect so the new engine knows the client) and the ids of
// requests still in flight (answered with an error when the engine dies). Which engine lines
// answer one is decided by their structure as they stream through (engine-answers.mjs).
//
// When the engine hands its home over to a new one (docs/updates.md), it says so on the
// connection (engine-notice.mjs): the shim resumes the session on a new connection, which the
// client's new requests go to, and leaves the old one open until it has answered the requests
// sent to it (and the client has answered that engine's own requests); the two connections'
// lines reach the client whole (stdout-mux.mjs).
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { answerFromBoot, clientNameOf, initializeFromBoot, readBootAnswer } from './boot-answer.mjs';
import { claimEngineStart, engineCommand, engineEnv } from './engine-launch.mjs';
import { EngineAnswers } from './engine-answers.mjs';
import { openHomeAppendSync } from './home-file.mjs';
import { resolveHome, socketPath } from './home-paths.mjs';
import { NoticeCutter } from './engine-notice.mjs';
import { LineSplitter } from './line-splitter.mjs';
import { StdoutMux } from './stdout-mux.mjs';

/** How long to wait for an engine that restarts by itself before starting one, in ms. */
const SELF_RESTART_GRACE_MS = 2500;
/** Give up reconnecting after this long, in ms. */
const RECONNECT_DEADLINE_MS = 20_000;
/** Client lines larger than this are relayed without looking for their id, in bytes. */
const MAX_INSPECT_BYTES = 1 << 20;

/** @param {string[]} argv */
function parseArgs(argv) {
  /** @type {{ profile?: string, home?: string, client?: string }} */
  const out = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--profile') out.profile = argv[++i];
    else if (a?.startsWith('--profile=')) out.profile = a.slice(10);
    else if (a === '--home') out.home = argv[++i];
    else if (a?.startsWith('--home=')) out.home = a.slice(7);
    else if (a === '--client') out.client = argv[++i];
    else if (a?.startsWith('--client=')) out.client = a.slice(9);
  }
  return out;
}

/** The connector's client id (`connect CLIENT` writes `--client CLIENT`), as src-shared/client-limits.ts CONNECTOR_ID_RE. */
const CLIENT_ID_RE = /^[a-z0-9][a-z0-9-]{0,39}$/;

/** @param {string} message @returns {never} */
function fail(message) {
  process.stderr.write(`switchboard shim: ${message}\n`);
  process.exit(2);
}

/** @param {string[]} argv */
export async function runShim(argv) {
  const args = parseArgs(argv);
  if (!args.profile) fail('missing --profile NAME (the Switchboard profile this client uses)');
  const home = resolveHome(args.home);
  const sockPath = socketPath(home);
  const profile = /** @type {string} */ (args.profile);
  // Told to the engine so it knows the client's limits even when its clientInfo is vague; an id that is none is left out.
  const client = args.client !== undefined && CLIENT_ID_RE.test(args.client) ? { client: args.client } : {};

  /** @type {net.Socket | null} */
  let sock = null;
  /** Bytes from the client not yet delivered to an engine. @type {Buffer[]} */
  let queue = [];
  /**
   * Until the first engine is reached, the client's lines are held whole (not as chunks), so the
   * ones a boot answer takes care of can be answered here and left out. Unbounded, as the
   * chunks were: a client sends little before its initialize is answered.
   * @type {Buffer[]}
   */
  let early = [];
  /**
   * Whether the client's lines may be answered from a boot answer: the first connect found no
   * engine, and the client's initialize found one (undefined: the first connect has not ended).
   * @type {boolean | undefined}
   */
  let noEngine;
  /** The boot answer that answered the client's initialize, and the digests of the lists it answered. */
  /** @type {import('./boot-answer.mjs').BootFile | undefined} */
  let boot;
  /** @type {Record<string, string>} */
  const bootServed = {};
  let stdinEnded = false;
  /** The client's initialize params, replayed on reconnect. @type {unknown} */
  let initParams;
  /** Ids of client requests awaiting an answer (JSON text of the id). @type {Set<string>} */
  const inflight = new Set();
  // Client lines are inspected whole; one over MAX_INSPECT_BYTES is relayed unread. Engine lines
  // are scanned as they stream, whatever their size, so a huge answer leaves the in-flight set too.
  const clientLines = new LineSplitter({ maxLineBytes: MAX_INSPECT_BYTES, onLine: (l) => inspectClientLine(l) });
  const out = new StdoutMux(process.stdout);
  /**
   * Connections to an engine that handed the home over, open while they owe answers: the ids of
   * the client's requests sent there, and of that engine's requests the client has not answered.
   * @typedef {{ sock: net.Socket, inflight: Set<string>, requests: Set<string> }} OldConnection
   * @type {Set<OldConnection>}
   */
  const olds = new Set();
  /**
   * The current connection's engine requests (sampling, elicitation, roots) the client has not
   * answered: when that engine hands over, the client's answers to them still go to it.
   * @type {Set<string> | undefined}
   */
  let currentRequests;
  /** Set when the engine said it hands the home over, until the next connection's hello. @type {{ lists: Record<string, string> } | undefined} */
  let moved;
  /** The client's lines while an old connection is open: each goes to the engine it is for. */
  const routedLines = new LineSplitter({ maxLineBytes: Infinity, onLine: (l) => routeClientLine(l) });
  /** Early lines not looked at yet (the first connect has not said whether an engine runs). @type {Buffer[]} */
  let fresh = [];
  const earlyLines = new LineSplitter({ maxLineBytes: Infinity, onLine: (l) => fresh.push(l) });
  let engineStarted = false;
  /** Whether an engine was reached once (the early lines went to it). */
  let attachedOnce = false;
  let lastStart = 0;
  /** The release of this shim's claim on starting the engine, while it holds one. @type {(() => void) | undefined} */
  let releaseClaim;

  /** @param {Buffer} line */
  function inspectClientLine(line) {
    if (line.length > MAX_INSPECT_BYTES) return;
    try {
      const msg = JSON.parse(line.toString('utf8'));
      if (msg && typeof msg === 'object' && 'id' in msg && 'method' in msg) {
        inflight.add(JSON.stringify(msg.id));
        if (msg.method === 'initialize') initParams = msg.params;
      } else if (msg && typeof msg === 'object' && 'id' in msg) {
        // The client answered a request of the current engine's.
        currentRequests?.delete(JSON.stringify(msg.id));
      } else if (msg?.method === 'notifications/cancelled') {
        // An engine does not answer a cancelled request: it is in flight no more.
        inflight.delete(JSON.stringify(msg.params?.requestId));
      }
    } catch {
      // Not JSON: the engine answers it with a parse error.
    }
  }

  /**
   * Answers what it can of the client's early lines from the boot answer (only when the first
   * connect found no engine), keeping the rest, in order, for the engine.
   */
  function answerEarly() {
    if (noEngine === undefined) return;
    for (const line of fresh) if (noEngine === false || !answerFromBootLine(line)) early.push(line);
    fresh = [];
  }

  /** @param {Buffer} line @returns {boolean} whether the line was taken care of here */
  function answerFromBootLine(line) {
    /** @type {Record<string, unknown> | undefined} */
    let msg;
    try {
      const parsed = JSON.parse(line.toString('utf8'));
      msg = parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? parsed : undefined;
    } catch {
      msg = undefined;
    }
    if (!msg || msg.jsonrpc !== '2.0') return false;
    if (!boot) {
      // Only the opening initialize can take a boot answer; a client without one waits for the engine as before.
      noEngine = false;
      if (msg.method !== 'initialize' || !('id' in msg)) return false;
      const name = clientNameOf(msg.params);
      boot = name === undefined ? undefined : readBootAnswer(home, profile, client.client ?? '', name);
      if (!boot) return false;
      noEngine = true;
      inflight.delete(JSON.stringify(msg.id));
      process.stdout.write(initializeFromBoot(msg, boot));
      return true;
    }
    const a = answerFromBoot(msg, boot);
    if (!a) return false;
    if (a.reply) {
      inflight.delete(JSON.stringify(msg.id));
      process.stdout.write(a.reply);
    }
    if (a.served) bootServed[a.served] = /** @type {string} */ (boot.digests[a.served]);
    return true;
  }

  /** @param {Buffer} chunk */
  function toEngine(chunk) {
    if (sock && !sock.destroyed && sock.readyState === 'open') sock.write(chunk);
    else queue.push(chunk);
  }

  /**
   * A client line while an old connection is open: an answer to that engine's request, or the
   * cancellation of a request sent there, goes there; everything else to the current engine.
   * @param {Buffer} line
   */
  function routeClientLine(line) {
    /** @type {OldConnection | undefined} */
    let to;
    if (line.length <= MAX_INSPECT_BYTES) {
      try {
        const msg = JSON.parse(line.toString('utf8'));
        if (msg && typeof msg === 'object') {
          if ('id' in msg && !('method' in msg)) {
            const id = JSON.stringify(msg.id);
            for (const o of olds) if (o.requests.delete(id)) to = o;
          } else if (msg.method === 'notifications/cancelled') {
            const id = JSON.stringify(msg.params?.requestId);
            for (const o of olds) if (o.inflight.delete(id)) to = o;
          }
        }
      } catch {
        // Not JSON: the current engine answers it.
      }
    }
    const bytes = Buffer.concat([line, Buffer.from('\n')]);
    if (to) {
      to.sock.write(bytes);
      leaveIfDone(to);
    } else toEngine(bytes);
  }

  /** An old connection that owes nothing more is ended. @param {OldConnection} o */
  function leaveIfDone(o) {
    if (o.inflight.size === 0 && o.requests.size === 0 && !o.sock.writableEnded) o.sock.end();
  }

  process.stdin.on('data', (chunk) => {
    clientLines.push(chunk);
    if (!attachedOnce) {
      earlyLines.push(chunk);
      answerEarly();
    } else if (olds.size > 0) routedLines.push(chunk);
    else toEngine(chunk);
  });
  process.stdin.on('end', () => {
    stdinEnded = true;
    if (sock) sock.end();
    else if (olds.size === 0) process.exit(0);
  });

  function startEngine() {
    // At most one start per second: a start that fails at once (the lock is still held by an
    // engine that is shutting down) is retried by the wait loop, not given up on.
    if (engineStarted || Date.now() - lastStart < 1000) return;
    lastStart = Date.now();
    // Another starter is bringing the engine up: wait for its socket.
    const release = claimEngineStart(home);
    if (!release) return;
    releaseClaim = release;
    engineStarted = true;
    const logDir = path.join(home, 'logs');
    let out = /** @type {import('node:child_process').StdioOptions} */ ('ignore');
    try {
      mkdirSync(logDir, { recursive: true, mode: 0o700 });
      // Never waits on a pipe planted under the log's name (home-file.mjs).
      const fd = openHomeAppendSync(path.join(logDir, 'engine.out.log'));
      out = ['ignore', fd, fd];
    } catch {
      // A home we cannot write to (or something planted as the log): the engine reports it itself.
    }
    /** @type {import('./engine-launch.mjs').EngineCommand} */
    let cmd;
    try {
      cmd = engineCommand(home);
    } catch (err) {
      fail(/** @type {Error} */ (err).message);
    }
    const child = spawn(cmd.command, cmd.args, { detached: true, stdio: out, windowsHide: true, env: engineEnv() });
    // A missing app (moved or half-uninstalled) must not crash the relay; the wait below ends
    // with a message naming the log.
    child.on('error', (err) => process.stderr.write(`switchboard shim: could not start the engine with ${cmd.command}: ${err.message}\n`));
    child.on('exit', () => {
      engineStarted = false;
      releaseClaim?.();
      releaseClaim = undefined;
    });
    child.unref();
  }

  /** @param {number} ms */
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

  /** @returns {Promise<net.Socket | null>} */
  function tryConnect() {
    return new Promise((resolve) => {
      const s = net.createConnection(sockPath);
      s.once('connect', () => resolve(s));
      s.once('error', () => resolve(null));
    });
  }

  /** @param {boolean} resume */
  async function connectLoop(resume) {
    const t0 = Date.now();
    let s = await tryConnect();
    if (!resume && noEngine === undefined) {
      noEngine = !s;
      answerEarly();
    }
    if (!s && !resume) startEngine();
    while (!s) {
      const waited = Date.now() - t0;
      if (waited > RECONNECT_DEADLINE_MS) {
        const log = path.join(home, 'logs', 'engine.out.log');
        // Requests waiting for it (a client answered from the boot answer makes calls) get an answer first.
        const error = JSON.stringify({ code: -32000, message: `The Switchboard engine did not start; see ${log}. Open the Switchboard app, or run \`switchboard doctor\`.` });
        for (const id of inflight) process.stdout.write(`{"jsonrpc":"2.0","id":${id},"error":${error}}\n`);
        fail(`could not reach the Switchboard engine for ${home} (socket ${sockPath}); see ${log}`);
      }
      if (!resume || waited > SELF_RESTART_GRACE_MS) startEngine();
      await sleep(resume ? 100 : 25);
      s = await tryConnect();
    }
    return s;
  }

  /** @param {boolean} resume */
  async function attach(resume) {
    const s = await connectLoop(resume);
    engineStarted = false;
    releaseClaim?.();
    releaseClaim = undefined;
    // A client whose initialize a boot answer took is handed over as a resumed one.
    const handover = resume || boot !== undefined;
    const resumed = moved ? { moved: true, boot: moved.lists } : boot && !attachedOnce ? { boot: bootServed } : {};
    moved = undefined;
    const hello =
      handover && initParams !== undefined
        ? { kind: 'mcp', profile, v: 1, resume: { initialize: initParams, ...resumed }, ...client }
        : { kind: 'mcp', profile, v: 1, ...client };
    s.write(JSON.stringify(hello) + '\n');
    s.setNoDelay(true);
    sock = s;
    if (!attachedOnce) {
      attachedOnce = true;
      // The early lines go first, then an unfinished one's bytes; the stream is relayed as bytes from here on.
      for (const line of [...early, ...fresh]) s.write(Buffer.concat([line, Buffer.from('\n')]));
      early = [];
      fresh = [];
      const rest = earlyLines.takePending();
      if (rest.length) s.write(rest);
    }
    for (const chunk of queue) s.write(chunk);
    queue = [];
    if (stdinEnded) s.end();
    /** Set once this engine said it hands the home over. @type {OldConnection | undefined} */
    let old;
    /** This engine's requests the client has not answered. @type {Set<string>} */
    const requests = new Set();
    currentRequests = requests;
    const answers = new EngineAnswers({
      onAnswer: (id) => {
        inflight.delete(id);
        if (old?.inflight.delete(id)) leaveIfDone(old);
      },
      onRequest: (id) => requests.add(id),
    });
    const notices = new NoticeCutter({
      onNotice: (params) => {
        if (old || sock !== s) return;
        // The lists the client holds there: the next engine announces only those that differ.
        const lists = params.lists && typeof params.lists === 'object' ? /** @type {Record<string, string>} */ (params.lists) : {};
        moved = { lists };
        // Everything in flight now was sent here (an older connection's requests are its own).
        const mine = [...inflight].filter((id) => ![...olds].some((o) => o.inflight.has(id)));
        old = { sock: s, inflight: new Set(mine), requests };
        olds.add(old);
        sock = null;
        // The client's answers from now on are routed by the old connections' sets (routeClientLine).
        currentRequests = undefined;
        void attach(true);
        leaveIfDone(old);
      },
    });
    s.on('data', (chunk) => {
      for (const piece of notices.push(chunk)) {
        answers.push(piece);
        out.write(s, piece);
      }
    });
    s.on('close', () => {
      out.release(s);
      if (old) {
        olds.delete(old);
        // Requests it was left owing (it was stopped before answering) get what an engine's death gives them.
        for (const id of old.inflight) {
          inflight.delete(id);
          out.write(null, Buffer.from(`{"jsonrpc":"2.0","id":${id},"error":${STOPPED_ERROR}}\n`));
        }
        if (olds.size === 0) {
          // Back to relaying bytes: an unfinished line goes on to the current engine.
          const rest = routedLines.takePending();
          if (rest.length) toEngine(rest);
        }
        if (stdinEnded && !sock && olds.size === 0) process.exit(0);
        return;
      }
      sock = null;
      if (stdinEnded) {
        if (olds.size === 0) process.exit(0);
        return;
      }
      // The engine went away: answer what it will never answer, then find the next engine.
      for (const id of inflight) {
        if ([...olds].some((o) => o.inflight.has(id))) continue;
        inflight.delete(id);
        out.write(null, Buffer.from(`{"jsonrpc":"2.0","id":${id},"error":${STOPPED_ERROR}}\n`));
      }
      void attach(true);
    });
    s.on('error', () => {});
  }

  await attach(false);
}

const STOPPED_ERROR = JSON.stringify({
  code: -32000,
  message: 'The Switchboard engine stopped during this request; it is restarting. Try again in a few seconds.',
});

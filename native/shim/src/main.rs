//! `switchboard shim --profile P [--home D] [--client ID]`, natively: the stdio MCP server an MCP client
//! starts, relayed as bytes to the engine over its local socket. It behaves as
//! src-main/shim/shim.mjs does (the same tests run against both, tests/shim/); only the cost
//! differs: no runtime to start, about a megabyte of memory, and a few microseconds per message.
//!
//! It reads just enough of the traffic to survive an engine restart: the client's `initialize`
//! (replayed on reconnect so that the new engine knows the client) and the ids of requests in
//! flight (answered with an error when the engine dies). Responses from the engine start with
//! `{"jsonrpc":"2.0","id":…`, so their id is read from the head of the line; whether a line is a
//! response is told by its top-level members as it streams by (json::TopLevel).
//!
//! When its first connect finds no engine, it answers the client's `initialize` and first lists
//! from the last engine's boot answer while the engine starts (boot.rs), and hands the session
//! over to the engine as a resumed one.
//!
//! Two threads: one copies the client's stdin to the socket, the main one copies the socket to
//! stdout and reconnects. Each blocks in read(), so a message costs one wake-up per direction.
//!
//! When the engine hands its home over to a new one (its moving notice, cut from the stream by
//! notice.rs; docs/updates.md), the shim holds the client's new lines while the old connection
//! answers the requests sent to it (the client's answers to that engine's own requests still go
//! there), then resumes the session on the new engine (`resume.moved`, with the digests of the
//! lists the client holds) and delivers what it held. The Node shim opens the new connection at
//! once instead; both keep the client's session without an error.
//!
//! Modules: relay.rs (the two threads), lines.rs (line framing), engine_start.rs and
//! start_claim.rs (starting the engine), boot.rs (the boot answer), paths.rs (home and socket),
//! json.rs (reading JSON), conn.rs and stdio.rs (the socket and stdio).

mod boot;
mod conn;
mod engine_start;
mod home_file;
mod json;
mod lines;
mod notice;
mod paths;
mod relay;
mod sha256;
mod start_claim;
mod stdio;
#[cfg(test)]
mod rules_test;

use std::path::{Path, PathBuf};
use std::process::{exit, Command};
use std::sync::{Mutex, MutexGuard};

const VERSION: &str = env!("CARGO_PKG_VERSION");

pub(crate) fn fail(message: &str) -> ! {
    eprintln!("switchboard shim: {message}");
    exit(2);
}

pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic aborts this binary (panic = "abort"), so a lock is never poisoned in practice.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn main() {
    let args: Vec<String> = std::env::args_os().skip(1).map(|a| a.to_string_lossy().into_owned()).collect();
    match args.first().map(String::as_str) {
        Some("shim") => run_shim(&args[1..]),
        Some("node") => run_node(&args[1..]),
        Some("--version" | "version") => println!("switchboard shim {VERSION} (native)"),
        // For tests and diagnosis: the home and socket this shim would use.
        Some("paths") => {
            let a = parse_args(&args[1..]);
            let home = paths::resolve_home(a.home.as_deref());
            println!("{home}\n{}", paths::socket_path(&home));
        }
        _ => {
            eprint!(
                "This is the Switchboard shim that MCP clients start: switchboard shim --profile NAME [--home DIR].\n\
                 Other commands (status, connect, runs, …) are in the Switchboard app: open it from its tray icon.\n"
            );
            exit(2);
        }
    }
}

#[derive(Default)]
struct Args {
    profile: Option<String>,
    home: Option<String>,
    client: Option<String>,
}

fn parse_args(argv: &[String]) -> Args {
    let mut out = Args::default();
    let mut i = 0;
    while i < argv.len() {
        let a = &argv[i];
        if a == "--profile" {
            i += 1;
            out.profile = argv.get(i).cloned();
        } else if let Some(v) = a.strip_prefix("--profile=") {
            out.profile = Some(v.to_string());
        } else if a == "--home" {
            i += 1;
            out.home = argv.get(i).cloned();
        } else if let Some(v) = a.strip_prefix("--home=") {
            out.home = Some(v.to_string());
        } else if a == "--client" {
            i += 1;
            out.client = argv.get(i).cloned();
        } else if let Some(v) = a.strip_prefix("--client=") {
            out.client = Some(v.to_string());
        }
        i += 1;
    }
    out
}

pub(crate) fn exe_dir() -> Option<PathBuf> {
    std::env::current_exe().ok().and_then(|p| p.parent().map(Path::to_path_buf))
}

/// A connector's client id, as src-shared/client-limits.ts CONNECTOR_ID_RE: `[a-z0-9][a-z0-9-]{0,39}`.
fn is_client_id(c: &str) -> bool {
    let b = c.as_bytes();
    !b.is_empty()
        && b.len() <= 40
        && (b[0].is_ascii_lowercase() || b[0].is_ascii_digit())
        && b.iter().all(|&x| x.is_ascii_lowercase() || x.is_ascii_digit() || x == b'-')
}

fn run_shim(argv: &[String]) {
    let a = parse_args(argv);
    let profile = a.profile.filter(|p| !p.is_empty()).unwrap_or_else(|| fail("missing --profile NAME (the Switchboard profile this client uses)"));
    let home = paths::resolve_home(a.home.as_deref());
    let socket = paths::socket_path(&home);
    let client = a.client.filter(|c| is_client_id(c));
    relay::run(home, socket, profile, client);
}

/// `switchboard node SCRIPT.cjs …`: the demo's reference servers run under the Node
/// single-executable shim, which the installed app keeps beside this one as switchboard-node.
fn run_node(args: &[String]) {
    let name = if cfg!(windows) { "switchboard-node.exe" } else { "switchboard-node" };
    let runner = exe_dir().map(|d| d.join(name));
    let runner = match runner {
        Some(r) if r.exists() => r,
        _ => {
            eprintln!("switchboard node: this shim runs Node scripts with {name} beside it, which is missing; reinstall Switchboard.");
            exit(2);
        }
    };
    let mut c = Command::new(&runner);
    c.arg("node").args(args);
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        let e = c.exec();
        eprintln!("switchboard node: could not run {}: {e}", runner.display());
        exit(2);
    }
    #[cfg(not(unix))]
    match c.status() {
        Ok(s) => exit(s.code().unwrap_or(1)),
        Err(e) => {
            eprintln!("switchboard node: could not run {}: {e}", runner.display());
            exit(2);
        }
    }
}

//! Starting the engine when none answers, in the same three cases as src-main/shim/engine-launch.mjs:
//! $SWITCHBOARD_ENGINE_COMMAND, the command a checkout build put beside this binary, or the
//! installed desktop app. Only the starter holding the start claim (start_claim.rs) spawns one.

use crate::start_claim::{claim_engine_start, release_engine_start};
use crate::{exe_dir, fail, json};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::thread;

/// Set beside a checkout's build by scripts/build-native-shim.mjs: how to start the engine there
/// (the installed app has none and starts the desktop app instead).
const ENGINE_COMMAND_FILE: &str = "engine-command.json";
/// glibc malloc settings for the engine (see ENGINE_MALLOC_TUNABLES in engine-launch.mjs).
pub(crate) const ENGINE_MALLOC_TUNABLES: &str = "glibc.malloc.arena_max=2:glibc.malloc.mmap_threshold=32768";
pub(crate) const ENGINE_COMMAND_ENV: &str = "SWITCHBOARD_ENGINE_COMMAND";

fn parse_command(raw: &str, what: &str) -> Vec<String> {
    json::string_array(raw).unwrap_or_else(|| {
        fail(&format!(
            "{what} must be a JSON array of strings, the command first (for example [\"/usr/bin/node\",\"/opt/switchboard/bin/switchboard.mjs\",\"engine\"]); it is {raw}"
        ))
    })
}

/// The same three cases as src-main/shim/engine-launch.mjs, the checkout's node being named by
/// the file the build put beside this binary.
fn engine_command(home: &str) -> (String, Vec<String>) {
    if let Some(raw) = std::env::var(ENGINE_COMMAND_ENV).ok().filter(|v| !v.is_empty()) {
        let mut v = parse_command(&raw, ENGINE_COMMAND_ENV);
        let cmd = v.remove(0);
        v.extend(["--home".to_string(), home.to_string()]);
        return (cmd, v);
    }
    let dir = exe_dir().unwrap_or_else(|| fail("cannot find where this shim is installed"));
    let sidecar = dir.join(ENGINE_COMMAND_FILE);
    if let Ok(raw) = std::fs::read_to_string(&sidecar) {
        let mut v = parse_command(raw.trim(), &sidecar.to_string_lossy());
        let cmd = v.remove(0);
        v.extend(["--home".to_string(), home.to_string()]);
        return (cmd, v);
    }
    (app_executable(&dir).to_string_lossy().into_owned(), vec!["--hidden".into(), "--home".into(), home.into()])
}

/// The desktop app's executable, from this binary's place in the installed app
/// (<resources>/bin/switchboard; see appExecutableForShim in engine-launch.mjs).
fn app_executable(bin_dir: &Path) -> PathBuf {
    let resources = bin_dir.parent().unwrap_or(bin_dir);
    let root = resources.parent().unwrap_or(resources);
    if cfg!(target_os = "macos") {
        root.join("MacOS").join("Switchboard")
    } else if cfg!(windows) {
        root.join("Switchboard.exe")
    } else {
        // electron-builder.yml sets executableName: switchboard-desktop.
        root.join("switchboard-desktop")
    }
}

/// Creates `dir` (owner-only, with its parents) and returns how to open an owner-only file in it.
pub(crate) fn owner_only(dir: &Path) -> std::fs::OpenOptions {
    let mut b = std::fs::DirBuilder::new();
    b.recursive(true);
    let mut o = std::fs::OpenOptions::new();
    #[cfg(unix)]
    {
        use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
        b.mode(0o700);
        o.mode(0o600);
    }
    let _ = b.create(dir);
    o
}

fn engine_log(home: &str) -> Option<std::fs::File> {
    let dir = Path::new(home).join("logs");
    let _ = owner_only(&dir);
    // A pipe planted under the log's name must not hold the shim (and the client) up.
    crate::home_file::open_append(&dir.join("engine.out.log")).ok()
}

/// Starts the engine; false (nothing started) when another starter holds the claim on it.
pub(crate) fn start_engine(home: &str) -> bool {
    if !claim_engine_start(home) {
        return false;
    }
    let (cmd, args) = engine_command(home);
    let mut c = Command::new(&cmd);
    c.args(&args).stdin(Stdio::null());
    if cfg!(target_os = "linux") {
        // The engine's malloc settings (ENGINE_MALLOC_TUNABLES in engine-launch.mjs), the user's
        // own GLIBC_TUNABLES after them so that theirs win.
        let tunables = match std::env::var("GLIBC_TUNABLES") {
            Ok(own) if !own.is_empty() => format!("{ENGINE_MALLOC_TUNABLES}:{own}"),
            _ => ENGINE_MALLOC_TUNABLES.to_string(),
        };
        c.env("GLIBC_TUNABLES", tunables);
    }
    match engine_log(home).and_then(|f| f.try_clone().ok().map(|g| (f, g))) {
        Some((out, err)) => c.stdout(out).stderr(err),
        // A home we cannot write to: the engine reports it itself.
        None => c.stdout(Stdio::null()).stderr(Stdio::null()),
    };
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        extern "C" {
            fn setsid() -> i32;
        }
        // SAFETY: setsid is async-signal-safe; it detaches the engine from the client's session
        // (as Node's detached: true does) so that the client's signals do not reach it.
        unsafe {
            c.pre_exec(|| {
                setsid();
                Ok(())
            });
        }
    }
    #[cfg(windows)]
    {
        use std::os::windows::process::CommandExt;
        const DETACHED_PROCESS: u32 = 0x0000_0008;
        const CREATE_NEW_PROCESS_GROUP: u32 = 0x0000_0200;
        c.creation_flags(DETACHED_PROCESS | CREATE_NEW_PROCESS_GROUP);
    }
    match c.spawn() {
        // Reaped when it exits, so that it never lingers as a zombie under a long-lived shim;
        // an engine that ended lets the next start be claimed.
        Ok(mut child) => {
            let home = home.to_string();
            drop(thread::spawn(move || {
                let _ = child.wait();
                release_engine_start(&home);
            }))
        }
        // A missing app (moved or half-uninstalled) must not crash the relay; the wait for the
        // socket ends with a message naming the log.
        Err(e) => {
            eprintln!("switchboard shim: could not start the engine with {cmd}: {e}");
            release_engine_start(home);
        }
    }
    true
}

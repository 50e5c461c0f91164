//! The claim on starting a home's engine, as claimEngineStart in src-main/shim/engine-launch.mjs:
//! the starter that creates <home>/run/engine-start.claim (holding its pid) starts the engine;
//! every other one waits for the socket. Broken when its pid is gone or it is older than
//! START_CLAIM_STALE (or dated further ahead).

use crate::engine_start::owner_only;
use crate::home_file;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

pub(crate) const START_CLAIM_FILE: &str = "engine-start.claim";
pub(crate) const START_CLAIM_STALE: Duration = Duration::from_secs(15);

pub(crate) fn claim_path(home: &str) -> PathBuf {
    Path::new(home).join("run").join(START_CLAIM_FILE)
}

fn own_claim() -> String {
    format!("{}\n", std::process::id())
}

/// True when the claim was taken; false when another live starter holds it.
pub(crate) fn claim_engine_start(home: &str) -> bool {
    let file = claim_path(home);
    for _ in 0..2 {
        match owner_only(file.parent().unwrap_or(Path::new(home))).write(true).create_new(true).open(&file) {
            Ok(mut f) => {
                let _ = f.write_all(own_claim().as_bytes());
                return true;
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
            // A home we cannot write to: the engine reports it itself.
            Err(_) => return true,
        }
        if !claim_is_stale(&file) {
            return false;
        }
        let _ = std::fs::remove_file(&file);
    }
    false
}

/// A claim holds a pid and a newline.
const MAX_CLAIM_BYTES: u64 = 64;

fn read_claim(file: &Path) -> Option<String> {
    home_file::read(file, MAX_CLAIM_BYTES).ok().map(|b| String::from_utf8_lossy(&b).into_owned())
}

fn claim_is_stale(file: &Path) -> bool {
    let mtime = std::fs::metadata(file).and_then(|m| m.modified()).ok();
    // Anything but our own small regular file (a pipe planted there would block the read) is no claim.
    let text = match read_claim(file) {
        Some(t) => t,
        None => return true,
    };
    if mtime.map_or(false, |t| further_than(t, START_CLAIM_STALE)) {
        return true;
    }
    match text.trim().parse::<i32>() {
        // Empty: its claimant is writing its pid this instant.
        Ok(pid) if pid > 0 => !process_alive(pid),
        _ => false,
    }
}

/// Whether `t` lies further than `bound` from now, in the past or ahead: a claim dated ahead (a
/// clock set back, a copied or touched file) would otherwise never grow old, and its live pid may
/// be a reused one of another program.
fn further_than(t: SystemTime, bound: Duration) -> bool {
    match SystemTime::now().duration_since(t) {
        Ok(age) => age > bound,
        Err(ahead) => ahead.duration() > bound,
    }
}

#[cfg(unix)]
fn process_alive(pid: i32) -> bool {
    extern "C" {
        fn kill(pid: i32, sig: i32) -> i32;
    }
    // SAFETY: signal 0 only checks that the process exists.
    unsafe { kill(pid, 0) == 0 || io::Error::last_os_error().raw_os_error() == Some(1) }
}

#[cfg(not(unix))]
fn process_alive(_pid: i32) -> bool {
    // No cheap check without a crate: the claim's age decides.
    true
}

pub(crate) fn release_engine_start(home: &str) {
    let file = claim_path(home);
    if read_claim(&file).map_or(false, |t| t == own_claim()) {
        let _ = std::fs::remove_file(&file);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn breaks_a_live_claim_dated_far_ahead_or_behind() {
        let dir = std::env::temp_dir().join(format!("sb-claim-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join(START_CLAIM_FILE);
        // Our own pid: alive, so only the date can make it stale.
        std::fs::write(&file, own_claim()).unwrap();
        let at = |t: SystemTime| std::fs::File::options().write(true).open(&file).unwrap().set_modified(t).unwrap();
        let year = Duration::from_secs(365 * 24 * 3600);
        at(SystemTime::now());
        assert!(!claim_is_stale(&file), "a fresh claim of a live starter");
        at(SystemTime::now() + Duration::from_secs(5));
        assert!(!claim_is_stale(&file), "a few seconds ahead is a clock's jitter");
        at(SystemTime::now() + year);
        assert!(claim_is_stale(&file), "a year ahead");
        at(SystemTime::now() - year);
        assert!(claim_is_stale(&file), "a year old");
        std::fs::remove_dir_all(&dir).unwrap();
    }

}

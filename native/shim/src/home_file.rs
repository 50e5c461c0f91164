//! The one way the native shim reads a small file of the home (the boot answer, the engine's
//! start claim), as src-main/shim/home-file.mjs does in the Node shim and the engine: only a
//! regular file, owned by this user, of a bounded size, and never with a read that can block.
//! A named pipe left under a boot answer's name blocked the shim at the client's initialize until
//! something opened it.
//!
//! The file is opened first (O_NONBLOCK: a FIFO opens at once; O_NOFOLLOW: a symbolic link does
//! not open) and the opened descriptor checked, so nothing can be swapped in between.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

#[cfg(unix)]
mod flags {
    #[cfg(any(target_os = "macos", target_os = "ios", target_os = "freebsd", target_os = "openbsd", target_os = "netbsd"))]
    pub const O_NONBLOCK: i32 = 0x0004;
    #[cfg(any(target_os = "macos", target_os = "ios", target_os = "freebsd", target_os = "openbsd", target_os = "netbsd"))]
    pub const O_NOFOLLOW: i32 = 0x0100;
    #[cfg(not(any(target_os = "macos", target_os = "ios", target_os = "freebsd", target_os = "openbsd", target_os = "netbsd")))]
    pub const O_NONBLOCK: i32 = 0o4000;
    // Linux: arm, aarch64 and powerpc number it apart from the generic value.
    #[cfg(all(not(any(target_os = "macos", target_os = "ios", target_os = "freebsd", target_os = "openbsd", target_os = "netbsd")), any(target_arch = "arm", target_arch = "aarch64", target_arch = "powerpc", target_arch = "powerpc64")))]
    pub const O_NOFOLLOW: i32 = 0o100000;
    #[cfg(all(not(any(target_os = "macos", target_os = "ios", target_os = "freebsd", target_os = "openbsd", target_os = "netbsd")), not(any(target_arch = "arm", target_arch = "aarch64", target_arch = "powerpc", target_arch = "powerpc64"))))]
    pub const O_NOFOLLOW: i32 = 0o400000;

    extern "C" {
        pub fn getuid() -> u32;
    }
}

fn refused(what: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, what.to_string())
}

/// The opened file's metadata when it is a regular file of this user, else why not.
fn checked(f: &File) -> io::Result<std::fs::Metadata> {
    let meta = f.metadata()?;
    if !meta.file_type().is_file() {
        return Err(refused("not a regular file"));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        // SAFETY: getuid has no preconditions and cannot fail.
        if meta.uid() != unsafe { flags::getuid() } {
            return Err(refused("another user's file"));
        }
    }
    Ok(meta)
}

/// The bytes of `file`, read as above: an error when it is missing, a link, not a regular file,
/// another user's, or larger than `max` bytes.
pub fn read(file: &Path, max: u64) -> io::Result<Vec<u8>> {
    let mut o = std::fs::OpenOptions::new();
    o.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        o.custom_flags(flags::O_NONBLOCK | flags::O_NOFOLLOW);
    }
    let f: File = o.open(file)?;
    let meta = checked(&f)?;
    if meta.len() > max {
        return Err(refused("too large"));
    }
    let mut bytes = Vec::new();
    // Bounded again while reading: the file may grow after the fstat.
    f.take(max + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max {
        return Err(refused("too large"));
    }
    Ok(bytes)
}

/// Opens a home file for appending (made owner-only when missing), as `openHomeAppendSync` does
/// in home-file.mjs: never waiting on a pipe (one nobody reads fails at once), never through a
/// link, and only a regular file of this user.
pub fn open_append(file: &Path) -> io::Result<File> {
    let mut o = std::fs::OpenOptions::new();
    o.append(true).create(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        o.mode(0o600).custom_flags(flags::O_NONBLOCK | flags::O_NOFOLLOW);
    }
    let f: File = o.open(file)?;
    checked(&f)?;
    Ok(f)
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::process::Command;

    #[test]
    fn reads_only_a_small_regular_file_of_this_user() {
        let dir = std::env::temp_dir().join(format!("sb-home-file-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let plain = dir.join("plain");
        std::fs::write(&plain, b"12345").unwrap();
        assert_eq!(read(&plain, 5).unwrap(), b"12345");
        assert!(read(&plain, 4).is_err());
        assert_eq!(read(&dir.join("missing"), 5).unwrap_err().kind(), io::ErrorKind::NotFound);
        // A link to it is not followed, a folder is no file.
        std::os::unix::fs::symlink(&plain, dir.join("link")).unwrap();
        assert!(read(&dir.join("link"), 5).is_err());
        assert!(read(&dir, 5).is_err());
        // A pipe nobody writes to is refused at once (a blocking open would wait forever).
        let fifo = dir.join("fifo");
        if Command::new("mkfifo").arg(&fifo).status().map_or(false, |s| s.success()) {
            let t0 = std::time::Instant::now();
            assert!(read(&fifo, 5).is_err());
            assert!(t0.elapsed() < std::time::Duration::from_secs(2));
        }
        // Another user's file (as root, the tests' usual user, a file can be given away).
        let foreign = dir.join("foreign");
        std::fs::write(&foreign, b"x").unwrap();
        if Command::new("chown").arg("65534:65534").arg(&foreign).status().map_or(false, |s| s.success()) {
            assert!(read(&foreign, 5).is_err());
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn appends_only_to_a_regular_file_of_this_user_and_never_waits_on_a_pipe() {
        use std::io::Write;
        let dir = std::env::temp_dir().join(format!("sb-home-append-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let log = dir.join("log");
        open_append(&log).unwrap().write_all(b"one\n").unwrap();
        open_append(&log).unwrap().write_all(b"two\n").unwrap();
        assert_eq!(std::fs::read(&log).unwrap(), b"one\ntwo\n");
        std::os::unix::fs::symlink(&log, dir.join("link")).unwrap();
        assert!(open_append(&dir.join("link")).is_err());
        assert_eq!(std::fs::read(&log).unwrap(), b"one\ntwo\n");
        let fifo = dir.join("fifo");
        if Command::new("mkfifo").arg(&fifo).status().map_or(false, |s| s.success()) {
            let t0 = std::time::Instant::now();
            assert!(open_append(&fifo).is_err());
            assert!(t0.elapsed() < std::time::Duration::from_secs(2));
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

//! The home and socket rules of src-main/engine/platform/home.ts and src-main/shim/shim.mjs, byte for
//! byte (tests/shim/shim-paths.test.ts runs this binary's `paths` command against both).

use crate::sha256::sha256_hex;
use std::env;

/// Node's path.posix.normalize: collapses `.`, `..` and repeated separators, drops a trailing one.
pub fn normalize_posix(p: &str) -> String {
    if p.is_empty() {
        return ".".into();
    }
    let abs = p.starts_with('/');
    let mut parts: Vec<&str> = Vec::new();
    for seg in p.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                if matches!(parts.last(), Some(l) if *l != "..") {
                    parts.pop();
                } else if !abs {
                    parts.push("..");
                }
            }
            s => parts.push(s),
        }
    }
    let joined = parts.join("/");
    match (abs, joined.is_empty()) {
        (true, _) => format!("/{joined}"),
        (false, true) => ".".into(),
        (false, false) => joined,
    }
}

fn join_posix(parts: &[&str]) -> String {
    let nonempty: Vec<&str> = parts.iter().copied().filter(|s| !s.is_empty()).collect();
    normalize_posix(&nonempty.join("/"))
}

fn non_empty(name: &str) -> Option<String> {
    env::var(name).ok().filter(|v| !v.is_empty())
}

/// path.resolve(p) against the working folder.
fn resolve(p: &str) -> String {
    if cfg!(windows) {
        return windows::resolve(p);
    }
    if p.starts_with('/') {
        return normalize_posix(p);
    }
    let cwd = env::current_dir().map(|d| d.to_string_lossy().into_owned()).unwrap_or_else(|_| "/".into());
    normalize_posix(&format!("{cwd}/{p}"))
}

fn user_home() -> String {
    non_empty("HOME")
        .or_else(|| non_empty("USERPROFILE"))
        .or_else(|| {
            #[allow(deprecated)]
            env::home_dir().map(|d| d.to_string_lossy().into_owned())
        })
        .unwrap_or_default()
}

/// `--home`, else $SWITCHBOARD_HOME, else the OS app-data folder.
pub fn resolve_home(flag: Option<&str>) -> String {
    if let Some(f) = flag.filter(|f| !f.is_empty()) {
        return resolve(f);
    }
    if let Some(h) = non_empty("SWITCHBOARD_HOME") {
        return resolve(&h);
    }
    let home = user_home();
    if cfg!(target_os = "macos") {
        return join_posix(&[&home, "Library", "Application Support", "Switchboard"]);
    }
    if cfg!(windows) {
        let appdata = non_empty("APPDATA").unwrap_or_else(|| windows::join(&[&home, "AppData", "Roaming"]));
        return windows::join(&[&appdata, "Switchboard"]);
    }
    match non_empty("XDG_CONFIG_HOME") {
        Some(x) => join_posix(&[&x, "Switchboard"]),
        None => join_posix(&[&home, ".config", "Switchboard"]),
    }
}

/// Unix socket paths are limited to ~104 bytes (macOS) / 108 (Linux); the engine stays under 100.
const MAX_SOCKET_PATH: usize = 100;

/// Node's os.tmpdir() on POSIX.
fn tmpdir() -> String {
    let mut t = non_empty("TMPDIR").or_else(|| non_empty("TMP")).or_else(|| non_empty("TEMP")).unwrap_or_else(|| "/tmp".into());
    if t.len() > 1 && t.ends_with('/') {
        t.pop();
    }
    t
}

#[cfg(unix)]
fn uid() -> u32 {
    extern "C" {
        fn getuid() -> u32;
    }
    // SAFETY: getuid has no preconditions and cannot fail.
    unsafe { getuid() }
}

#[cfg(not(unix))]
fn uid() -> u32 {
    0
}

pub fn socket_path(home: &str) -> String {
    if cfg!(windows) {
        let h = sha256_hex(home.to_lowercase().as_bytes());
        return format!(r"\\.\pipe\switchboard-{}", &h[..16]);
    }
    let p = join_posix(&[home, "run", "engine.sock"]);
    if p.len() <= MAX_SOCKET_PATH {
        return p;
    }
    let h = sha256_hex(home.as_bytes());
    let base = match non_empty("XDG_RUNTIME_DIR") {
        Some(rt) if rt.len() < 60 => rt,
        _ => tmpdir(),
    };
    join_posix(&[&base, &format!("switchboard-{}-{}", uid(), &h[..12]), "engine.sock"])
}

/// Node's path.join / path.resolve for win32, for the cases the home takes (a drive or UNC
/// prefix, then names): enough to name the same folder as the engine. Compiled everywhere so that its
/// unit tests run on Linux too.
mod windows {
    pub fn normalize(p: &str) -> String {
        let p = p.replace('/', "\\");
        let (prefix, rest) = if p.starts_with("\\\\") {
            // \\server\share\…
            let mut it = p[2..].splitn(3, '\\');
            let server = it.next().unwrap_or("");
            let share = it.next().unwrap_or("");
            (format!("\\\\{server}\\{share}\\"), it.next().unwrap_or("").to_string())
        } else if p.len() >= 2 && p.as_bytes()[1] == b':' {
            let abs = p[2..].starts_with('\\');
            (format!("{}{}", &p[..2], if abs { "\\" } else { "" }), p[2..].to_string())
        } else if p.starts_with('\\') {
            ("\\".to_string(), p.to_string())
        } else {
            (String::new(), p)
        };
        let mut parts: Vec<&str> = Vec::new();
        for seg in rest.split('\\') {
            match seg {
                "" | "." => {}
                ".." => {
                    if matches!(parts.last(), Some(l) if *l != "..") {
                        parts.pop();
                    } else if prefix.is_empty() {
                        parts.push("..");
                    }
                }
                s => parts.push(s),
            }
        }
        let joined = parts.join("\\");
        if prefix.is_empty() && joined.is_empty() {
            return ".".into();
        }
        format!("{prefix}{joined}")
    }

    pub fn join(parts: &[&str]) -> String {
        let nonempty: Vec<&str> = parts.iter().copied().filter(|s| !s.is_empty()).collect();
        normalize(&nonempty.join("\\"))
    }

    #[allow(dead_code)]
    pub fn resolve(p: &str) -> String {
        let q = p.replace('/', "\\");
        let absolute = q.starts_with("\\\\") || (q.len() >= 3 && q.as_bytes()[1] == b':' && q.as_bytes()[2] == b'\\');
        if absolute {
            return normalize(&q);
        }
        let cwd = std::env::current_dir().map(|d| d.to_string_lossy().into_owned()).unwrap_or_default();
        normalize(&format!("{cwd}\\{q}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn normalizes_like_node() {
        for (i, o) in [("/a//b/./c/", "/a/b/c"), ("/a/../..", "/"), ("a/../../b", "../b"), ("", "."), ("/", "/"), ("./a", "a")] {
            assert_eq!(normalize_posix(i), o, "{i}");
        }
        assert_eq!(windows::join(&["C:\\Users\\Ada\\", "AppData", "Roaming"]), "C:\\Users\\Ada\\AppData\\Roaming");
    }
}

//! The home and socket rules of src-main/shim/home-paths.mjs (which the engine uses too), byte for
//! byte: src-shared/shim-rules.json holds the cases both are tested against (rules_test.rs here).

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

/// The platform whose rules apply: the one this binary is built for, or another in tests.
#[derive(Clone, Copy, PartialEq, Debug)]
pub enum Platform {
    Linux,
    MacOs,
    Windows,
}

/// What the rules read from the process: its platform, environment (a variable set empty counts
/// as unset), working folder and user id. `Context::current()` outside tests.
pub struct Context<'a> {
    pub platform: Platform,
    pub env: &'a dyn Fn(&str) -> Option<String>,
    pub cwd: String,
    pub uid: u32,
}

fn process_env(name: &str) -> Option<String> {
    env::var(name).ok().filter(|v| !v.is_empty())
}

impl Context<'static> {
    pub fn current() -> Context<'static> {
        let platform = if cfg!(windows) {
            Platform::Windows
        } else if cfg!(target_os = "macos") {
            Platform::MacOs
        } else {
            Platform::Linux
        };
        let fallback = if cfg!(windows) { "" } else { "/" };
        let cwd = env::current_dir().map(|d| d.to_string_lossy().into_owned()).unwrap_or_else(|_| fallback.into());
        Context { platform, env: &process_env, cwd, uid: uid() }
    }
}

impl Context<'_> {
    fn var(&self, name: &str) -> Option<String> {
        (self.env)(name).filter(|v| !v.is_empty())
    }

    /// path.resolve(p) against the working folder.
    fn resolve(&self, p: &str) -> String {
        if self.platform == Platform::Windows {
            return windows::resolve(p, &self.cwd);
        }
        if p.starts_with('/') {
            return normalize_posix(p);
        }
        normalize_posix(&format!("{}/{p}", self.cwd))
    }

    fn user_home(&self) -> String {
        self.var("HOME")
            .or_else(|| self.var("USERPROFILE"))
            .or_else(|| {
                #[allow(deprecated)]
                env::home_dir().map(|d| d.to_string_lossy().into_owned())
            })
            .unwrap_or_default()
    }

    /// Node's os.tmpdir() on POSIX.
    fn tmpdir(&self) -> String {
        let mut t = self.var("TMPDIR").or_else(|| self.var("TMP")).or_else(|| self.var("TEMP")).unwrap_or_else(|| "/tmp".into());
        if t.len() > 1 && t.ends_with('/') {
            t.pop();
        }
        t
    }
}

pub const APP_DIR_NAME: &str = "Switchboard";

/// `--home`, else $SWITCHBOARD_HOME, else the OS app-data folder.
pub fn resolve_home(flag: Option<&str>) -> String {
    resolve_home_in(flag, &Context::current())
}

pub fn resolve_home_in(flag: Option<&str>, cx: &Context) -> String {
    if let Some(f) = flag.filter(|f| !f.is_empty()) {
        return cx.resolve(f);
    }
    if let Some(h) = cx.var("SWITCHBOARD_HOME") {
        return cx.resolve(&h);
    }
    let home = cx.user_home();
    match cx.platform {
        Platform::MacOs => join_posix(&[&home, "Library", "Application Support", APP_DIR_NAME]),
        Platform::Windows => {
            let appdata = cx.var("APPDATA").unwrap_or_else(|| windows::join(&[&home, "AppData", "Roaming"]));
            windows::join(&[&appdata, APP_DIR_NAME])
        }
        Platform::Linux => match cx.var("XDG_CONFIG_HOME") {
            Some(x) => join_posix(&[&x, APP_DIR_NAME]),
            None => join_posix(&[&home, ".config", APP_DIR_NAME]),
        },
    }
}

/// Unix socket paths are limited to ~104 bytes (macOS) / 108 (Linux); the engine stays under, in bytes.
pub const MAX_SOCKET_PATH_BYTES: usize = 100;
/// $XDG_RUNTIME_DIR holds the short socket folder only when at most this long, in bytes.
pub const MAX_RUNTIME_DIR_BYTES: usize = 59;

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
    socket_path_in(home, &Context::current())
}

pub fn socket_path_in(home: &str, cx: &Context) -> String {
    if cx.platform == Platform::Windows {
        let h = sha256_hex(home.to_lowercase().as_bytes());
        return format!(r"\\.\pipe\switchboard-{}", &h[..16]);
    }
    let p = join_posix(&[home, "run", "engine.sock"]);
    if p.len() <= MAX_SOCKET_PATH_BYTES {
        return p;
    }
    let h = sha256_hex(home.as_bytes());
    let base = match cx.var("XDG_RUNTIME_DIR") {
        Some(rt) if rt.len() <= MAX_RUNTIME_DIR_BYTES => rt,
        _ => cx.tmpdir(),
    };
    join_posix(&[&base, &format!("switchboard-{}-{}", cx.uid, &h[..12]), "engine.sock"])
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

    pub fn resolve(p: &str, cwd: &str) -> String {
        let q = p.replace('/', "\\");
        let absolute = q.starts_with("\\\\") || (q.len() >= 3 && q.as_bytes()[1] == b':' && q.as_bytes()[2] == b'\\');
        if absolute {
            return normalize(&q);
        }
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

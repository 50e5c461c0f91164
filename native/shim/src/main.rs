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

mod boot;
mod conn;
mod home_file;
mod json;
mod notice;
mod paths;
mod sha256;

use conn::Conn;
use std::collections::HashSet;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{exit, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread;
use std::time::{Duration, Instant, SystemTime};

/// How long to wait for an engine that restarts by itself before starting one.
const SELF_RESTART_GRACE: Duration = Duration::from_millis(2500);
/// Give up reconnecting after this long.
const RECONNECT_DEADLINE: Duration = Duration::from_secs(20);
/// Client lines larger than this are relayed without looking for their id, in bytes.
const MAX_INSPECT_BYTES: usize = 1 << 20;
/// How much of an engine line holds its id (the Node shim reads the same 80 bytes).
const ENGINE_HEAD_BYTES: usize = 80;
/// Set beside a checkout's build by scripts/build-native-shim.mjs: how to start the engine there
/// (the installed app has none and starts the desktop app instead).
const ENGINE_COMMAND_FILE: &str = "engine-command.json";
/// glibc malloc settings for the engine (see ENGINE_MALLOC_TUNABLES in engine-launch.mjs).
const ENGINE_MALLOC_TUNABLES: &str = "glibc.malloc.arena_max=2:glibc.malloc.mmap_threshold=131072";
const ENGINE_COMMAND_ENV: &str = "SWITCHBOARD_ENGINE_COMMAND";
const VERSION: &str = env!("CARGO_PKG_VERSION");

const ENGINE_STOPPED: &str = "The Switchboard engine stopped during this request; it is restarting. Try again in a few seconds.";

fn fail(message: &str) -> ! {
    eprintln!("switchboard shim: {message}");
    exit(2);
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
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

// ---------------------------------------------------------------------------------------------
// Starting the engine

fn exe_dir() -> Option<PathBuf> {
    std::env::current_exe().ok().and_then(|p| p.parent().map(Path::to_path_buf))
}

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
fn owner_only(dir: &Path) -> std::fs::OpenOptions {
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
    owner_only(&dir).append(true).create(true).open(dir.join("engine.out.log")).ok()
}

/// The claim on starting a home's engine, as claimEngineStart in src-main/shim/engine-launch.mjs:
/// the starter that creates <home>/run/engine-start.claim (holding its pid) starts the engine;
/// every other one waits for the socket. Broken when its pid is gone or it is older than this (or
/// dated further ahead).
const START_CLAIM_FILE: &str = "engine-start.claim";
const START_CLAIM_STALE: Duration = Duration::from_secs(15);

fn claim_path(home: &str) -> PathBuf {
    Path::new(home).join("run").join(START_CLAIM_FILE)
}

fn own_claim() -> String {
    format!("{}\n", std::process::id())
}

/// True when the claim was taken; false when another live starter holds it.
fn claim_engine_start(home: &str) -> bool {
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

fn release_engine_start(home: &str) {
    let file = claim_path(home);
    if read_claim(&file).map_or(false, |t| t == own_claim()) {
        let _ = std::fs::remove_file(&file);
    }
}

/// Starts the engine; false (nothing started) when another starter holds the claim on it.
fn start_engine(home: &str) -> bool {
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

// ---------------------------------------------------------------------------------------------
// The relay

struct Writer {
    /// The socket's writing half; None while (re)connecting.
    conn: Option<Conn>,
    /// Client bytes not yet delivered to an engine.
    queue: Vec<Vec<u8>>,
    stdin_ended: bool,
    /// The client's lines until the first engine is reached (None from then on).
    early: Option<boot::Early>,
    /// The hello's `resume.boot` (the digests of the lists a boot answer served), for every
    /// engine after the first too, as the Node shim sends it.
    boot_served: Option<String>,
    /// The engine said it hands the home over: the client's lines are held (its answers to that
    /// engine's requests excepted) until its requests in flight are answered.
    holding: bool,
    /// While holding, the client's unfinished line.
    route: Vec<u8>,
    /// The lists the client holds (raw JSON digests from the notice), for the next hello.
    moved_lists: Option<String>,
}

struct Track {
    /// Ids of client requests awaiting an answer, as JSON text.
    inflight: HashSet<String>,
    /// Raw JSON of the client's initialize params, replayed on reconnect.
    init_params: Option<String>,
}

struct Shim {
    home: String,
    socket: String,
    profile: String,
    /// The connector's client id (`--client`), when it is one: told to the engine in the hello.
    client: Option<String>,
    // Lock order: writer, then track.
    writer: Mutex<Writer>,
    track: Mutex<Track>,
    /// Whether this shim started the engine it waits for (and holds the claim on its start).
    engine_started: AtomicBool,
    /// When this shim last tried to claim the engine's start.
    last_claim_try: Mutex<Option<Instant>>,
}

/// Collects the client's lines (up to MAX_INSPECT_BYTES each) for inspect_request.
struct ClientLines {
    buf: Vec<u8>,
    /// Inside a line too long to inspect: skip to its end.
    skipping: bool,
}

impl ClientLines {
    fn feed(&mut self, mut chunk: &[u8], mut f: impl FnMut(&[u8])) {
        while let Some(nl) = chunk.iter().position(|&b| b == b'\n') {
            let seg = &chunk[..nl];
            if !self.skipping {
                if self.buf.is_empty() {
                    if seg.len() <= MAX_INSPECT_BYTES {
                        f(seg);
                    }
                } else {
                    self.buf.extend_from_slice(seg);
                    if self.buf.len() <= MAX_INSPECT_BYTES {
                        f(&self.buf);
                    }
                    self.buf.clear();
                }
            }
            self.skipping = false;
            chunk = &chunk[nl + 1..];
        }
        if !self.skipping && !chunk.is_empty() {
            if self.buf.len() + chunk.len() > MAX_INSPECT_BYTES {
                self.skipping = true;
                self.buf = Vec::new();
            } else {
                self.buf.extend_from_slice(chunk);
            }
        }
    }
}

/// Follows the engine's lines without keeping them: the head (which holds the id) and, as the
/// bytes stream by, the line's top-level members (json::TopLevel): only a line with a top-level
/// result or error and no method answers a request.
struct EngineLines {
    head: Vec<u8>,
    top: json::TopLevel,
    mid_line: bool,
}

/// The id at the head of an engine line, matched as the Node shim's regular expression does:
/// /^\{"jsonrpc":"2\.0","id":("(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?|null)/
fn engine_id(head: &[u8]) -> Option<&[u8]> {
    const PREFIX: &[u8] = b"{\"jsonrpc\":\"2.0\",\"id\":";
    let r = head.strip_prefix(PREFIX)?;
    match *r.first()? {
        b'"' => {
            let mut i = 1;
            loop {
                match *r.get(i)? {
                    b'"' => return Some(&r[..=i]),
                    b'\\' => {
                        if matches!(r.get(i + 1), None | Some(b'\n' | b'\r')) {
                            return None;
                        }
                        i += 2;
                    }
                    _ => i += 1,
                }
            }
        }
        b'-' | b'0'..=b'9' => {
            let digits = |from: usize| r[from..].iter().take_while(|b| b.is_ascii_digit()).count();
            let mut i = usize::from(r[0] == b'-');
            let d = digits(i);
            if d == 0 {
                return None;
            }
            i += d;
            if r.get(i) == Some(&b'.') {
                let f = digits(i + 1);
                if f > 0 {
                    i += 1 + f;
                }
            }
            Some(&r[..i])
        }
        b'n' if r.starts_with(b"null") => Some(&r[..4]),
        _ => None,
    }
}

impl EngineLines {
    fn new() -> Self {
        EngineLines { head: Vec::with_capacity(ENGINE_HEAD_BYTES), top: json::TopLevel::new(), mid_line: false }
    }

    fn reset(&mut self) {
        self.head.clear();
        self.top.reset();
        self.mid_line = false;
    }

    fn segment(&mut self, seg: &[u8]) {
        if seg.is_empty() {
            return;
        }
        if self.head.len() < ENGINE_HEAD_BYTES {
            let take = (ENGINE_HEAD_BYTES - self.head.len()).min(seg.len());
            self.head.extend_from_slice(&seg[..take]);
        }
        self.top.feed(seg);
    }

    fn feed(&mut self, mut chunk: &[u8], mut done: impl FnMut(&[u8])) {
        while let Some(nl) = chunk.iter().position(|&b| b == b'\n') {
            self.segment(&chunk[..nl]);
            if self.top.is_response() {
                if let Some(id) = engine_id(&self.head) {
                    done(id);
                }
            }
            self.reset();
            chunk = &chunk[nl + 1..];
        }
        if !chunk.is_empty() {
            self.segment(chunk);
            self.mid_line = true;
        }
    }
}

/// One of this process's stdio descriptors, unbuffered: every relayed byte goes out at once
/// (Rust's Stdout would hold back a partial line). Never closed (ManuallyDrop).
#[cfg(unix)]
struct Fd(std::mem::ManuallyDrop<std::fs::File>);

#[cfg(unix)]
impl Fd {
    fn new(fd: i32) -> Fd {
        use std::os::fd::FromRawFd;
        // SAFETY: fds 0 and 1 are this process's stdio, and ManuallyDrop never closes them.
        Fd(std::mem::ManuallyDrop::new(unsafe { std::fs::File::from_raw_fd(fd) }))
    }
}

#[cfg(unix)]
impl Read for Fd {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.0.read(buf)
    }
}

#[cfg(unix)]
impl Write for Fd {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.write(buf)
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(unix)]
fn std_streams() -> (impl Read, impl Write) {
    (Fd::new(0), Fd::new(1))
}

#[cfg(unix)]
fn stdout() -> impl Write {
    std_streams().1
}

#[cfg(windows)]
struct Flushing<W: Write>(W);
#[cfg(windows)]
impl<W: Write> Write for Flushing<W> {
    fn write(&mut self, b: &[u8]) -> io::Result<usize> {
        let n = self.0.write(b)?;
        self.0.flush()?;
        Ok(n)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.0.flush()
    }
}
#[cfg(windows)]
fn stdout() -> impl Write {
    Flushing(io::stdout())
}
#[cfg(windows)]
fn std_streams() -> (impl Read, impl Write) {
    (io::stdin(), stdout())
}

impl Shim {
    /// The first line to an engine. A client whose initialize a boot answer took is handed over
    /// as a resumed one, with the digests of the lists it was answered.
    fn hello(&self, resume: bool, boot_served: Option<&str>, moved_lists: Option<&str>) -> Vec<u8> {
        let t = lock(&self.track);
        let profile = json::quote(&self.profile);
        let client = match &self.client {
            Some(c) => format!(",\"client\":{}", json::quote(c)),
            None => String::new(),
        };
        let boot = match moved_lists {
            Some(l) => format!(",\"moved\":true,\"boot\":{l}"),
            None => boot_served.map(|b| format!(",\"boot\":{b}")).unwrap_or_default(),
        };
        let s = match (&t.init_params, resume || boot_served.is_some()) {
            (Some(p), true) => format!("{{\"kind\":\"mcp\",\"profile\":{profile},\"v\":1{client},\"resume\":{{\"initialize\":{p}{boot}}}}}\n"),
            _ => format!("{{\"kind\":\"mcp\",\"profile\":{profile},\"v\":1{client}}}\n"),
        };
        s.into_bytes()
    }

    /// Writes what the boot answer answered; those requests are no longer in flight. Called
    /// under the writer lock, before any engine is reached: nothing else writes to stdout then.
    fn reply_early(&self, replies: Vec<boot::Reply>) {
        if replies.is_empty() {
            return;
        }
        let mut out = stdout();
        for r in replies {
            lock(&self.track).inflight.remove(&r.id);
            if out.write_all(r.line.as_bytes()).is_err() {
                // The client has gone.
                exit(0);
            }
        }
    }

    /// Starts the engine unless this shim did already (or another starter is doing it: then
    /// asked again a second later, in case that start fails).
    fn start_engine_once(&self) {
        let mut last = lock(&self.last_claim_try);
        if self.engine_started.load(Ordering::SeqCst) || last.map_or(false, |t| t.elapsed() < Duration::from_secs(1)) {
            return;
        }
        *last = Some(Instant::now());
        if start_engine(&self.home) {
            self.engine_started.store(true, Ordering::SeqCst);
        }
    }

    fn connect_loop(&self, resume: bool) -> Conn {
        let t0 = Instant::now();
        let mut c = Conn::connect(&self.socket).ok();
        if !resume {
            // Whether the client's early lines may be answered from a boot answer.
            let mut w = lock(&self.writer);
            if let Some(e) = w.early.as_mut() {
                let replies = e.first_connect(c.is_some());
                self.reply_early(replies);
            }
        }
        if c.is_none() && !resume {
            self.start_engine_once();
        }
        while c.is_none() {
            let waited = t0.elapsed();
            if waited > RECONNECT_DEADLINE {
                let log = Path::new(&self.home).join("logs").join("engine.out.log");
                // Requests waiting for it (a client answered from the boot answer makes calls) get an answer first.
                let message = json::quote(&format!("The Switchboard engine did not start; see {}. Open the Switchboard app, or run `switchboard doctor`.", log.display()));
                let mut out = stdout();
                for id in lock(&self.track).inflight.drain() {
                    let _ = out.write_all(format!("{{\"jsonrpc\":\"2.0\",\"id\":{id},\"error\":{{\"code\":-32000,\"message\":{message}}}}}\n").as_bytes());
                }
                let _ = out.flush();
                fail(&format!("could not reach the Switchboard engine for {} (socket {}); see {}", self.home, self.socket, log.display()));
            }
            if !resume || waited > SELF_RESTART_GRACE {
                self.start_engine_once();
            }
            thread::sleep(Duration::from_millis(if resume { 100 } else { 25 }));
            c = Conn::connect(&self.socket).ok();
        }
        c.unwrap()
    }

    /// Connects, says hello (with the client's initialize when resuming), delivers what
    /// queued up meanwhile, and returns the reading half.
    fn attach(&self, resume: bool) -> Conn {
        let reader = self.connect_loop(resume);
        if self.engine_started.swap(false, Ordering::SeqCst) {
            release_engine_start(&self.home);
        }
        let mut w = lock(&self.writer);
        let mut out = reader.try_clone().unwrap_or_else(|e| fail(&format!("cannot use the engine's socket: {e}")));
        let early = w.early.take().map(|e| e.hand_over());
        if let Some((served, _)) = &early {
            w.boot_served = served.clone();
        }
        // A write that fails means the engine went away again: the reading half sees it too.
        // Only the first engine is told what the boot answer served: a restarted one follows a
        // client that has since listed from the engine before it.
        let moved = w.moved_lists.take();
        let _ = out.write_all(&self.hello(resume, if resume { None } else { w.boot_served.as_deref() }, moved.as_deref()));
        // The client's early lines go first; the stream is relayed as bytes from here on.
        if let Some((_, bytes)) = early {
            let _ = out.write_all(&bytes);
        }
        for chunk in std::mem::take(&mut w.queue) {
            let _ = out.write_all(&chunk);
        }
        if w.stdin_ended {
            out.shutdown_write();
        }
        w.conn = Some(out);
        reader
    }

    /// The client's side: stdin to the socket (or to the queue while there is none).
    fn pump_stdin(&self, mut stdin: impl Read) {
        let mut buf = vec![0u8; 64 * 1024];
        let mut lines = ClientLines { buf: Vec::new(), skipping: false };
        loop {
            let n = match stdin.read(&mut buf) {
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(_) => 0,
            };
            // Under the writer lock, so that an engine's death (which answers what is in
            // flight, under the same lock) falls wholly before or after this chunk.
            let mut w = lock(&self.writer);
            if n == 0 {
                w.stdin_ended = true;
                match &w.conn {
                    None => exit(0),
                    Some(c) if Conn::HALF_CLOSE => c.shutdown_write(),
                    // A named pipe cannot half-close: wait for what is in flight, then leave.
                    Some(_) => {
                        drop(w);
                        let t0 = Instant::now();
                        while !lock(&self.track).inflight.is_empty() && t0.elapsed() < Duration::from_secs(10) {
                            thread::sleep(Duration::from_millis(20));
                        }
                        exit(0);
                    }
                }
                return;
            }
            let chunk = &buf[..n];
            lines.feed(chunk, |line| {
                if let Some(r) = json::inspect_request(line) {
                    let mut t = lock(&self.track);
                    if r.method_is_initialize {
                        t.init_params = r.params;
                    }
                    t.inflight.insert(r.id);
                }
            });
            if let Some(e) = w.early.as_mut() {
                let replies = e.push(chunk);
                self.reply_early(replies);
                continue;
            }
            if w.holding {
                let w = &mut *w;
                w.route.extend_from_slice(chunk);
                while let Some(nl) = w.route.iter().position(|&b| b == b'\n') {
                    let line: Vec<u8> = w.route.drain(..=nl).collect();
                    // Only the engine being left can have asked the client something: answers go back to it.
                    match w.conn.as_mut() {
                        Some(c) if is_response(&line[..nl]) => drop(c.write_all(&line)),
                        _ => w.queue.push(line),
                    }
                }
                continue;
            }
            match w.conn.as_mut() {
                // Lost if the engine died meanwhile; its id is answered with an error then.
                Some(c) => drop(c.write_all(chunk)),
                None => w.queue.push(chunk.to_vec()),
            }
        }
    }

    /// The engine's side: the socket to stdout; on the engine's death, answers what it never
    /// will and finds the next engine.
    fn pump_engine(&self, mut conn: Conn) -> ! {
        let mut out = stdout();
        let mut buf = vec![0u8; 64 * 1024];
        let mut pass = Vec::with_capacity(64 * 1024);
        let mut lines = EngineLines::new();
        let mut notices = notice::NoticeCutter::new();
        // While the engine hands over: the requests it still owes an answer.
        let mut owed: Option<HashSet<String>> = None;
        loop {
            let n = match conn.read(&mut buf) {
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(_) => 0,
            };
            if n > 0 {
                pass.clear();
                let mut moving: Option<Vec<u8>> = None;
                notices.feed(&buf[..n], &mut pass, |l| moving = Some(l.to_vec()));
                lines.feed(&pass, |id| {
                    // The id is ASCII-safe UTF-8 text here: it came from the engine's JSON.
                    let id = String::from_utf8_lossy(id);
                    lock(&self.track).inflight.remove(&*id);
                    if let Some(o) = owed.as_mut() {
                        o.remove(&*id);
                    }
                });
                if out.write_all(&pass).is_err() {
                    // The client has gone.
                    exit(0);
                }
                if let (Some(notice), None) = (moving, &owed) {
                    let lists = json::members(&notice)
                        .and_then(|m| m.get("params"))
                        .and_then(json::members)
                        .and_then(|m| m.get("lists"))
                        .map(|l| String::from_utf8_lossy(l).into_owned());
                    let mut w = lock(&self.writer);
                    w.holding = true;
                    w.moved_lists = Some(lists.unwrap_or_else(|| "{}".into()));
                    owed = Some(lock(&self.track).inflight.clone());
                }
                if owed.as_ref().map_or(false, |o| o.is_empty()) {
                    // Answered all it owed: on to the new engine, with what was held.
                    owed = None;
                    {
                        let mut w = lock(&self.writer);
                        if let Some(c) = w.conn.take() {
                            c.close();
                        }
                        Self::release_held(&mut w);
                    }
                    lines.reset();
                    notices = notice::NoticeCutter::new();
                    conn = self.attach(true);
                }
                continue;
            }
            let mut msg = Vec::new();
            {
                let mut w = lock(&self.writer);
                if let Some(c) = w.conn.take() {
                    c.close();
                }
                if w.stdin_ended {
                    exit(0);
                }
                // A line the engine left half-written is ended, so the errors parse.
                if lines.mid_line {
                    msg.push(b'\n');
                }
                lines.reset();
                notices = notice::NoticeCutter::new();
                let mut t = lock(&self.track);
                // Handing over, it owed only these: the lines held since were never sent to it.
                let lost: Vec<String> = match owed.take() {
                    Some(o) => o.into_iter().filter(|id| t.inflight.remove(id)).collect(),
                    None => t.inflight.drain().collect(),
                };
                drop(t);
                Self::release_held(&mut w);
                for id in lost {
                    msg.extend_from_slice(format!("{{\"jsonrpc\":\"2.0\",\"id\":{id},\"error\":{{\"code\":-32000,\"message\":\"{ENGINE_STOPPED}\"}}}}\n").as_bytes());
                }
            }
            if !msg.is_empty() && out.write_all(&msg).is_err() {
                exit(0);
            }
            conn = self.attach(true);
        }
    }

    /// Stops holding the client's lines: they wait in the queue for the next engine.
    fn release_held(w: &mut Writer) {
        w.holding = false;
        let rest = std::mem::take(&mut w.route);
        if !rest.is_empty() {
            w.queue.push(rest);
        }
    }
}

/// Whether a client line is a response (a top-level result or error, no method).
fn is_response(line: &[u8]) -> bool {
    json::members(line).map_or(false, |m| m.get("method").is_none() && (m.get("result").is_some() || m.get("error").is_some()))
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
    let early = boot::Early::new(&home, &profile, client.as_deref().unwrap_or(""));
    let shim = Arc::new(Shim {
        home,
        socket,
        profile,
        client,
        writer: Mutex::new(Writer {
            conn: None,
            queue: Vec::new(),
            stdin_ended: false,
            early: Some(early),
            boot_served: None,
            holding: false,
            route: Vec::new(),
            moved_lists: None,
        }),
        track: Mutex::new(Track { inflight: HashSet::new(), init_params: None }),
        engine_started: AtomicBool::new(false),
        last_claim_try: Mutex::new(None),
    });
    let (stdin, _) = std_streams();
    let s = shim.clone();
    // Started first, so that a client that gives up before an engine answers ends the shim.
    thread::Builder::new().name("stdin".into()).spawn(move || s.pump_stdin(stdin)).unwrap_or_else(|e| fail(&format!("cannot start: {e}")));
    let conn = shim.attach(false);
    shim.pump_engine(conn);
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

    #[test]
    fn reads_engine_ids_like_the_node_shim() {
        assert_eq!(engine_id(br#"{"jsonrpc":"2.0","id":12,"result":{}}"#), Some(&b"12"[..]));
        assert_eq!(engine_id(br#"{"jsonrpc":"2.0","id":"a\"b","result":{}}"#), Some(&br#""a\"b""#[..]));
        assert_eq!(engine_id(br#"{"jsonrpc":"2.0","id":-1.5,"error":{}}"#), Some(&b"-1.5"[..]));
        assert_eq!(engine_id(br#"{"jsonrpc":"2.0","id":null,"error":{}}"#), Some(&b"null"[..]));
        assert_eq!(engine_id(br#"{"jsonrpc":"2.0","method":"x"}"#), None);
    }

    #[test]
    fn follows_engine_lines_across_reads() {
        let mut seen = Vec::new();
        let mut l = EngineLines::new();
        let line = br#"{"jsonrpc":"2.0","id":3,"result":{"x":1}}"#;
        for split in 1..line.len() {
            l.feed(&line[..split], |id| seen.push(id.to_vec()));
            l.feed(&line[split..], |id| seen.push(id.to_vec()));
            l.feed(b"\n", |id| seen.push(id.to_vec()));
        }
        assert_eq!(seen.len(), line.len() - 1);
        // A request is no answer, even with the id of a pending one and a "result" key inside (issue 29 #9).
        l.feed(b"{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"ping\"}\n", |id| seen.push(id.to_vec()));
        l.feed(b"{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"elicitation/create\",\"params\":{\"requestedSchema\":{\"properties\":{\"result\":{}}}}}\n", |id| {
            seen.push(id.to_vec())
        });
        assert_eq!(seen.len(), line.len() - 1);
    }

    #[test]
    fn skips_client_lines_too_long_to_inspect() {
        let mut l = ClientLines { buf: Vec::new(), skipping: false };
        let mut n = 0;
        let big = vec![b'x'; MAX_INSPECT_BYTES + 10];
        l.feed(&big, |_| n += 1);
        l.feed(b"{\"id\":1}\n{\"a\":", |_| n += 1);
        assert_eq!(n, 0);
        l.feed(b"1}\n", |line| {
            assert_eq!(line, b"{\"a\":1}");
            n += 1
        });
        assert_eq!(n, 1);
    }
}

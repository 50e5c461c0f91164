//! The relay itself: the client's stdin to the engine's socket on one thread, the socket to
//! stdout on the other, with the reconnects, the engine's handover and the boot answer's early
//! lines in between (see main.rs for the whole story).

use crate::conn::Conn;
use crate::engine_start::start_engine;
use crate::lines::{ClientLines, EngineLines};
use crate::start_claim::release_engine_start;
use crate::stdio::{std_streams, stdout};
use crate::{boot, fail, json, lock, notice};
use std::collections::HashSet;
use std::io::{self, Read, Write};
use std::path::Path;
use std::process::exit;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// How long to wait for an engine that restarts by itself before starting one.
const SELF_RESTART_GRACE: Duration = Duration::from_millis(2500);
/// Give up reconnecting after this long.
const RECONNECT_DEADLINE: Duration = Duration::from_secs(20);

const ENGINE_STOPPED: &str = "The Switchboard engine stopped during this request; it is restarting. Try again in a few seconds.";

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
        let mut lines = ClientLines::new();
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

/// Relays this client's stdio to the engine of `home` until either side ends.
pub fn run(home: String, socket: String, profile: String, client: Option<String>) -> ! {
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
    shim.pump_engine(conn)
}

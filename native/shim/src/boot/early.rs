//! The client's lines until the first engine is reached: which of them the boot answer takes
//! care of (only when the first connect found no engine), and what goes on to the engine.

use super::{read, Answer, BootFile, LISTS};
use crate::json;

/// A client request answered here: its id as JSON text (no longer in flight) and the response line.
#[derive(Debug)]
pub struct Reply {
    pub id: String,
    pub line: String,
}

/// The client's lines until the first engine is reached: held whole (not as chunks), so that
/// the ones a boot answer takes care of can be answered here and left out.
pub struct Early {
    home: String,
    profile: String,
    connector: String,
    /// None until the first connect ended; then whether lines may be answered here: it found no
    /// engine and (once the client's first line came) a boot answer took the initialize.
    no_engine: Option<bool>,
    /// The boot answer that answered the client's initialize.
    boot: Option<BootFile>,
    /// The digests of the lists answered from it, by their place in LISTS.
    served: [Option<String>; 4],
    /// Lines left for the engine, in order.
    kept: Vec<Vec<u8>>,
    /// Lines not looked at yet (the first connect has not ended).
    fresh: Vec<Vec<u8>>,
    /// The bytes of an unfinished line.
    partial: Vec<u8>,
}

impl Early {
    pub fn new(home: &str, profile: &str, connector: &str) -> Early {
        Early {
            home: home.into(),
            profile: profile.into(),
            connector: connector.into(),
            no_engine: None,
            boot: None,
            served: Default::default(),
            kept: Vec::new(),
            fresh: Vec::new(),
            partial: Vec::new(),
        }
    }

    /// Takes the client's next bytes; returns what was answered here. Unbounded, as the queue of
    /// chunks was: a client sends little before its initialize is answered.
    pub fn push(&mut self, mut chunk: &[u8]) -> Vec<Reply> {
        while let Some(nl) = chunk.iter().position(|&b| b == b'\n') {
            let mut line = std::mem::take(&mut self.partial);
            line.extend_from_slice(&chunk[..nl]);
            self.fresh.push(line);
            chunk = &chunk[nl + 1..];
        }
        self.partial.extend_from_slice(chunk);
        self.answer_fresh()
    }

    /// The first connect ended, and found an engine or not; returns what was answered here.
    pub fn first_connect(&mut self, found: bool) -> Vec<Reply> {
        if self.no_engine.is_none() {
            self.no_engine = Some(!found);
        }
        self.answer_fresh()
    }

    fn answer_fresh(&mut self) -> Vec<Reply> {
        let mut replies = Vec::new();
        if self.no_engine.is_none() {
            return replies;
        }
        for line in std::mem::take(&mut self.fresh) {
            if self.no_engine == Some(false) || !self.answer_line(&line, &mut replies) {
                self.kept.push(line);
            }
        }
        replies
    }

    /// Whether the line was taken care of here (answered, or dropped for the engine's replay).
    fn answer_line(&mut self, line: &[u8], replies: &mut Vec<Reply>) -> bool {
        let text = String::from_utf8_lossy(line);
        let msg = match json::members(text.as_bytes()) {
            Some(m) => m,
            None => return false,
        };
        if !msg.get("jsonrpc").map_or(false, |v| json::string_is(v, "2.0")) {
            return false;
        }
        let boot = match &self.boot {
            Some(b) => b,
            None => {
                // Only the opening initialize can take a boot answer; a client without one waits
                // for the engine as before.
                self.no_engine = Some(false);
                let id = match msg.get("id") {
                    Some(id) if msg.get("method").map_or(false, |m| json::string_is(m, "initialize")) => json::canonical_id(id),
                    _ => return false,
                };
                let params = msg.get("params");
                let name = match params.and_then(client_name_of) {
                    Some(n) => n,
                    None => return false,
                };
                let boot = match read(&self.home, &self.profile, &self.connector, &name) {
                    Some(b) => b,
                    None => return false,
                };
                self.no_engine = Some(true);
                replies.push(Reply { line: boot.initialize_reply(&id, params), id });
                self.boot = Some(boot);
                return true;
            }
        };
        match boot.answer(&msg) {
            None => false,
            Some(Answer::Drop) => true,
            Some(Answer::Reply { id, line, served }) => {
                if let Some(k) = served {
                    self.served[k] = boot.digests[k].clone();
                }
                replies.push(Reply { id, line });
                true
            }
        }
    }

    /// What the first engine gets after the hello: the lines kept, each with its newline, then
    /// an unfinished line's bytes (the stream is relayed as bytes from there on). With them, when
    /// a boot answer took the initialize, the hello's `boot` member: the digests of the lists
    /// it served (`{}` when none).
    pub fn hand_over(self) -> (Option<String>, Vec<u8>) {
        let mut bytes = Vec::new();
        for line in self.kept.iter().chain(self.fresh.iter()) {
            bytes.extend_from_slice(line);
            bytes.push(b'\n');
        }
        bytes.extend_from_slice(&self.partial);
        let served = self.boot.as_ref().map(|_| {
            let kinds: Vec<String> =
                LISTS.iter().zip(self.served.iter()).filter_map(|((_, name), d)| d.as_ref().map(|d| format!("\"{name}\":{d}"))).collect();
            format!("{{{}}}", kinds.join(","))
        });
        (served, bytes)
    }
}

/// The clientInfo.name of an initialize's params, when it is a string.
fn client_name_of(params: &[u8]) -> Option<Vec<u16>> {
    let info = json::members(params)?.get("clientInfo")?;
    json::string(json::members(info)?.get("name")?)
}

#[cfg(test)]
mod tests {
    use super::super::file_stamp;
    use super::super::tests::file_text;
    use super::super::key;
    use super::*;

    #[test]
    fn answers_early_lines_only_when_no_engine_ran() {
        let home = std::env::temp_dir().join(format!("sb-boot-early-{}", std::process::id()));
        let dir = home.join("run").join("boot");
        std::fs::create_dir_all(&dir).unwrap();
        let config = home.join("config.json");
        std::fs::write(&config, "{}").unwrap();
        let text = file_text(&[("config", &json::quote(&file_stamp(&config)))]);
        std::fs::write(dir.join(format!("{}.json", key("p", "", "c"))), text).unwrap();
        let h = home.to_string_lossy();
        let init = b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\",\"clientInfo\":{\"name\":\"c\",\"version\":\"1\"}}}\n";
        let rest = b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}\n{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\"}\n{\"jsonrpc\"";

        // No engine: held until the first connect ends, then answered; the rest kept in order.
        let mut e = Early::new(&h, "p", "");
        assert!(e.push(&init[..20]).is_empty());
        assert!(e.push(&init[20..]).is_empty());
        let first = e.first_connect(false);
        assert_eq!(first.len(), 1);
        assert_eq!(first[0].id, "1");
        assert!(first[0].line.contains("\"protocolVersion\":\"2025-06-18\",\"capabilities\""));
        let later = e.push(rest);
        assert_eq!(later.iter().map(|r| r.id.as_str()).collect::<Vec<_>>(), ["2"]);
        let (served, bytes) = e.hand_over();
        assert_eq!(served.unwrap(), format!("{{\"tools\":\"{}\"}}", "d".repeat(64)));
        assert_eq!(bytes, b"{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\"}\n{\"jsonrpc\"");

        // An engine found: every byte goes to it, as it came.
        let mut e = Early::new(&h, "p", "");
        assert!(e.push(init).is_empty());
        assert!(e.first_connect(true).is_empty());
        assert!(e.push(rest).is_empty());
        let (served, bytes) = e.hand_over();
        assert_eq!(served, None);
        assert_eq!(bytes, [&init[..], &rest[..]].concat());

        // Another client (no file for it), or a first line that is not initialize: to the engine.
        for first in [&b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"clientInfo\":{\"name\":\"d\"}}}\n"[..], &b"{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"ping\"}\n"[..]] {
            let mut e = Early::new(&h, "p", "");
            assert!(e.push(first).is_empty());
            assert!(e.first_connect(false).is_empty());
            assert!(e.push(init).is_empty());
            let (served, bytes) = e.hand_over();
            assert_eq!(served, None);
            assert_eq!(bytes, [first, &init[..]].concat());
        }

        // A changed config.json: the file no longer answers.
        std::fs::write(&config, "{ }").unwrap();
        let mut e = Early::new(&h, "p", "");
        assert!(e.push(init).is_empty());
        assert!(e.first_connect(false).is_empty());
        std::fs::remove_dir_all(&home).unwrap();
    }
}

//! Takes the engine's moving notice (`notifications/switchboard/engineMoving`: the engine hands
//! its home over, docs/updates.md) out of the bytes relayed to the client, which must never see
//! it; src-main/shim/engine-notice.mjs does the same in the Node shim. The engine writes it as a
//! line of its own starting with NOTICE_HEAD; every other line passes through as it streams (a
//! line is held only while its first bytes could still be the notice's).

pub const NOTICE_HEAD: &[u8] = b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/switchboard/engineMoving\"";
/// A notice longer than this is still cut, but handed over without its params, in bytes.
const MAX_NOTICE_BYTES: usize = 64 * 1024;

pub struct NoticeCutter {
    /// At a line's start, or this many bytes into one that matches NOTICE_HEAD so far.
    matched: usize,
    /// Inside a line that is not the notice.
    passing: bool,
    /// Inside the notice, dropping it up to its newline.
    cutting: bool,
    /// The notice's bytes after its head (None once it grew past MAX_NOTICE_BYTES).
    rest: Option<Vec<u8>>,
}

impl NoticeCutter {
    pub fn new() -> Self {
        NoticeCutter { matched: 0, passing: false, cutting: false, rest: Some(Vec::new()) }
    }

    /// Appends the bytes of `chunk` to relay to `out` (the notice left out); `on_notice` gets each
    /// whole notice line (empty when it was too long to keep).
    pub fn feed(&mut self, chunk: &[u8], out: &mut Vec<u8>, mut on_notice: impl FnMut(&[u8])) {
        let n = chunk.len();
        let mut i = 0;
        while i < n {
            if self.cutting {
                let nl = chunk[i..].iter().position(|&b| b == b'\n').map(|p| i + p);
                let end = nl.unwrap_or(n);
                if let Some(r) = self.rest.as_mut() {
                    r.extend_from_slice(&chunk[i..end]);
                    if r.len() > MAX_NOTICE_BYTES {
                        self.rest = None;
                    }
                }
                // Debian's rustc 1.63 (the Windows cross-build) has no let-else.
                let nl = match nl {
                    Some(nl) => nl,
                    None => return,
                };
                self.cutting = false;
                i = nl + 1;
                let line = match self.rest.replace(Vec::new()) {
                    Some(r) => [NOTICE_HEAD, &r].concat(),
                    None => Vec::new(),
                };
                on_notice(&line);
                continue;
            }
            if self.passing {
                match chunk[i..].iter().position(|&b| b == b'\n') {
                    None => {
                        out.extend_from_slice(&chunk[i..]);
                        return;
                    }
                    Some(p) => {
                        out.extend_from_slice(&chunk[i..=i + p]);
                        self.passing = false;
                        i += p + 1;
                    }
                }
                continue;
            }
            let take = (n - i).min(NOTICE_HEAD.len() - self.matched);
            if chunk[i..i + take] == NOTICE_HEAD[self.matched..self.matched + take] {
                self.matched += take;
                i += take;
                if self.matched == NOTICE_HEAD.len() {
                    self.matched = 0;
                    self.cutting = true;
                }
                continue;
            }
            // Not the notice: what was held of an earlier chunk goes first.
            out.extend_from_slice(&NOTICE_HEAD[..self.matched]);
            self.matched = 0;
            self.passing = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuts_the_notice_whatever_the_chunks() {
        let notice = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/switchboard/engineMoving\",\"params\":{\"pid\":1}}\n";
        let stream = format!("{{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{{}}}}\n{notice}{{\"jsonrpc\":\"2.0\",\"method\":\"notifications/x\"}}\n{{\"jsonrpc\":\"2.0\",\"method\":\"notifications/switchboard/engineMov\"}}\n");
        let expect = stream.replace(notice, "");
        for size in 1..=stream.len() {
            let mut c = NoticeCutter::new();
            let mut out = Vec::new();
            let mut seen = Vec::new();
            for piece in stream.as_bytes().chunks(size) {
                c.feed(piece, &mut out, |l| seen.push(l.to_vec()));
            }
            assert_eq!(String::from_utf8(out).unwrap(), expect, "chunks of {size}");
            assert_eq!(seen, vec![notice.trim_end().as_bytes().to_vec()], "chunks of {size}");
        }
    }
}

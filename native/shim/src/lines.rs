//! The line framing of the relay: which client lines are small enough to inspect, and which
//! engine lines answer a request (and with which id), followed as the bytes stream by.

use crate::json;

/// Client lines larger than this are relayed without looking for their id, in bytes.
pub const MAX_INSPECT_BYTES: usize = 1 << 20;
/// How much of an engine line holds its id (the Node shim reads the same 80 bytes).
const ENGINE_HEAD_BYTES: usize = 80;

/// Collects the client's lines (up to MAX_INSPECT_BYTES each) for inspect_request.
pub(crate) struct ClientLines {
    buf: Vec<u8>,
    /// Inside a line too long to inspect: skip to its end.
    skipping: bool,
}

impl ClientLines {
    pub(crate) fn new() -> Self {
        ClientLines { buf: Vec::new(), skipping: false }
    }

    pub(crate) fn feed(&mut self, mut chunk: &[u8], mut f: impl FnMut(&[u8])) {
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
pub(crate) struct EngineLines {
    head: Vec<u8>,
    top: json::TopLevel,
    pub(crate) mid_line: bool,
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
    pub(crate) fn new() -> Self {
        EngineLines { head: Vec::with_capacity(ENGINE_HEAD_BYTES), top: json::TopLevel::new(), mid_line: false }
    }

    pub(crate) fn reset(&mut self) {
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

    pub(crate) fn feed(&mut self, mut chunk: &[u8], mut done: impl FnMut(&[u8])) {
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

#[cfg(test)]
mod tests {
    use super::*;

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
        // A request is no answer, even with the id of a pending one and a "result" key inside.
        l.feed(b"{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"ping\"}\n", |id| seen.push(id.to_vec()));
        l.feed(b"{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"elicitation/create\",\"params\":{\"requestedSchema\":{\"properties\":{\"result\":{}}}}}\n", |id| {
            seen.push(id.to_vec())
        });
        assert_eq!(seen.len(), line.len() - 1);
    }

    #[test]
    fn skips_client_lines_too_long_to_inspect() {
        let mut l = ClientLines::new();
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

//! Telling a JSON-RPC response from a request as an engine line streams by, without keeping it.

use super::{is_key, string};

/// Follows one line's top-level members as its bytes stream by, to tell a JSON-RPC response (a
/// top-level "result" or "error" and no top-level "method") from a request or notification that
/// merely carries such a key deeper down, as EngineAnswers in
/// src-main/shim/engine-answers.mjs does for the Node shim. Nothing is kept but the key being read.
pub struct TopLevel {
    /// Nesting: 0 before the top-level object (or after it), 1 inside it.
    depth: usize,
    opened: bool,
    /// Something other than one object: never a response.
    bad: bool,
    in_string: bool,
    escaped: bool,
    /// At depth 1, the next string is a member's key.
    key_next: bool,
    /// The raw bytes of the top-level key being read (up to MAX_KEY_BYTES + 1).
    key: Option<Vec<u8>>,
    has_method: bool,
    has_answer: bool,
}

/// A top-level key longer than this (raw) is none of the three looked for.
const MAX_KEY_BYTES: usize = 64;

impl TopLevel {
    pub fn new() -> TopLevel {
        TopLevel { depth: 0, opened: false, bad: false, in_string: false, escaped: false, key_next: false, key: None, has_method: false, has_answer: false }
    }

    /// Forgets the line under way.
    pub fn reset(&mut self) {
        *self = TopLevel::new();
    }

    /// Whether what was fed is one whole object with a top-level result or error and no method.
    pub fn is_response(&self) -> bool {
        self.opened && !self.bad && self.depth == 0 && self.has_answer && !self.has_method
    }

    fn key_bytes(&mut self, b: &[u8]) {
        if let Some(k) = self.key.as_mut() {
            let room = (MAX_KEY_BYTES + 1).saturating_sub(k.len());
            k.extend_from_slice(&b[..b.len().min(room)]);
        }
    }

    fn member(&mut self, raw: &[u8]) {
        if raw.len() > MAX_KEY_BYTES {
            return;
        }
        let is = |name: &str| {
            if raw.contains(&b'\\') {
                // Written with escapes: the key JSON.parse would read.
                let mut quoted = Vec::with_capacity(raw.len() + 2);
                quoted.push(b'"');
                quoted.extend_from_slice(raw);
                quoted.push(b'"');
                string(&quoted).map_or(false, |k| is_key(&k, name))
            } else {
                raw == name.as_bytes()
            }
        };
        if is("method") {
            self.has_method = true;
        } else if is("result") || is("error") {
            self.has_answer = true;
        }
    }

    /// A piece of the line, without its newline.
    pub fn feed(&mut self, seg: &[u8]) {
        let mut i = 0;
        while i < seg.len() && !self.bad {
            if self.in_string {
                if self.escaped {
                    self.escaped = false;
                    self.key_bytes(&seg[i..i + 1]);
                    i += 1;
                    continue;
                }
                let rest = &seg[i..];
                match rest.iter().position(|&c| c == b'"' || c == b'\\') {
                    None => {
                        self.key_bytes(rest);
                        return;
                    }
                    Some(p) => {
                        self.key_bytes(&rest[..p]);
                        i += p + 1;
                        if rest[p] == b'\\' {
                            self.escaped = true;
                            self.key_bytes(b"\\");
                        } else {
                            self.in_string = false;
                            if let Some(k) = self.key.take() {
                                self.member(&k);
                            }
                        }
                    }
                }
                continue;
            }
            let c = seg[i];
            i += 1;
            match c {
                b'"' => {
                    self.in_string = true;
                    if self.depth == 1 && self.key_next {
                        self.key = Some(Vec::new());
                        self.key_next = false;
                    }
                }
                b'{' | b'[' => {
                    // Only an object may open the line.
                    if self.depth == 0 && (self.opened || c != b'{') {
                        self.bad = true;
                    }
                    self.opened = true;
                    self.depth += 1;
                    if self.depth == 1 {
                        self.key_next = true;
                    }
                }
                b'}' | b']' => match self.depth.checked_sub(1) {
                    Some(d) => self.depth = d,
                    None => self.bad = true,
                },
                b',' if self.depth == 1 => self.key_next = true,
                b' ' | b'\t' | b'\r' => {}
                _ if self.depth == 0 => self.bad = true,
                _ => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn responses(text: &[u8], cuts: &[usize]) -> Vec<bool> {
        let mut out = Vec::new();
        let mut t = TopLevel::new();
        let mut at = 0;
        let feed = |piece: &[u8], t: &mut TopLevel, out: &mut Vec<bool>| {
            let mut rest = piece;
            while let Some(nl) = rest.iter().position(|&b| b == b'\n') {
                t.feed(&rest[..nl]);
                out.push(t.is_response());
                t.reset();
                rest = &rest[nl + 1..];
            }
            t.feed(rest);
        };
        for &c in cuts.iter().chain(std::iter::once(&text.len())) {
            feed(&text[at..c], &mut t, &mut out);
            at = c;
        }
        out
    }

    #[test]
    fn tells_responses_by_their_top_level_members() {
        for yes in [
            r#"{"jsonrpc":"2.0","id":3,"result":{"x":1}}"#,
            r#"{"jsonrpc":"2.0","id":"a\"b","error":{"code":-1,"message":"no"}}"#,
            r#"{"jsonrpc":"2.0","id":4,"\u0072esult":{}}"#,
        ] {
            assert_eq!(responses(format!("{yes}\n").as_bytes(), &[]), [true], "{yes}");
        }
        for no in [
            // a server→client request with the id of a pending call and such a key in its params.
            r#"{"jsonrpc":"2.0","id":3,"method":"elicitation/create","params":{"message":"say \"result\": 1","requestedSchema":{"type":"object","properties":{"result":{"type":"string"},"error":{}}}}}"#,
            r#"{"jsonrpc":"2.0","id":3,"method":"sampling/createMessage","params":{"result":{},"error":{}}}"#,
            r#"{"jsonrpc":"2.0","id":3,"result":{},"method":"x"}"#,
            r#"{"jsonrpc":"2.0","id":3,"result":{},"\u006dethod":"x"}"#,
            r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"result":1}}"#,
            r#"{"jsonrpc":"2.0","id":3,"results":{}}"#,
            r#"{"jsonrpc":"2.0","id":3,"x":"\"result\":"}"#,
            r#"{"jsonrpc":"2.0","id":3,"result":{}} {"error":1}"#,
            r#"[{"jsonrpc":"2.0","id":3,"result":{}}]"#,
            r#"{"jsonrpc":"2.0","id":3,"result":{}"#,
            r#"not json "result":"#,
        ] {
            assert_eq!(responses(format!("{no}\n").as_bytes(), &[]), [false], "{no}");
        }
        // However the lines are cut.
        let text = concat!(
            r#"{"jsonrpc":"2.0","id":1,"method":"x","params":{"a":"\\\"result\":","result":[{"error":"}"}]}}"#,
            "\n",
            r#"{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"a \"method\": \\ {["}]}}"#,
            "\n",
        )
        .as_bytes();
        for a in 0..=text.len() {
            assert_eq!(responses(text, &[a]), [false, true], "cut at {a}");
        }
        assert_eq!(responses(text, &(0..text.len()).collect::<Vec<_>>()), [false, true]);
    }

}

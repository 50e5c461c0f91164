//! Just enough JSON for the shim: it validates a client line the way `JSON.parse` does and reads
//! the request's id (written back as `JSON.stringify` would, since that is how the engine echoes
//! it), whether it is an `initialize`, and the raw text of its params. The boot answer
//! (boot.rs) reads its file and the client's early lines with the same parser, one object's
//! members at a time. Nothing is built into a tree: the shim relays bytes and looks at a few
//! members, whose raw text it keeps.

mod top_level;
mod write;

pub use top_level::TopLevel;
pub use write::{js_number, quote, quote_units};

/// What the shim needs to know about one client request.
#[derive(Debug, PartialEq)]
pub struct Request {
    /// The id as `JSON.stringify(msg.id)` writes it.
    pub id: String,
    pub method_is_initialize: bool,
    /// Raw JSON text of `params`, when present.
    pub params: Option<String>,
}

/// Deeper nesting than this is left uninspected (relayed all the same), so that a hostile line
/// cannot exhaust the stack.
const MAX_DEPTH: usize = 512;

struct Parser<'a> {
    b: &'a [u8],
    i: usize,
    depth: usize,
}

enum Str {
    Skip,
    Keep(Vec<u16>),
}

type R<T> = Result<T, ()>;

impl<'a> Parser<'a> {
    fn ws(&mut self) {
        while let Some(&c) = self.b.get(self.i) {
            if c == b' ' || c == b'\t' || c == b'\n' || c == b'\r' {
                self.i += 1;
            } else {
                break;
            }
        }
    }

    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn eat(&mut self, c: u8) -> R<()> {
        if self.peek() == Some(c) {
            self.i += 1;
            Ok(())
        } else {
            Err(())
        }
    }

    fn hex4(&mut self) -> R<u16> {
        let s = self.b.get(self.i..self.i + 4).ok_or(())?;
        let mut v: u16 = 0;
        for &c in s {
            let d = (c as char).to_digit(16).ok_or(())? as u16;
            v = v * 16 + d;
        }
        self.i += 4;
        Ok(v)
    }

    /// A string; decoded to UTF-16 units (as JavaScript holds it) only when `keep`.
    fn string(&mut self, keep: bool) -> R<Str> {
        self.eat(b'"')?;
        let mut out: Vec<u16> = Vec::new();
        let mut seg = self.i;
        loop {
            let c = self.peek().ok_or(())?;
            match c {
                b'"' | b'\\' => {
                    if keep {
                        out.extend(String::from_utf8_lossy(&self.b[seg..self.i]).encode_utf16());
                    }
                    self.i += 1;
                    if c == b'"' {
                        return Ok(if keep { Str::Keep(out) } else { Str::Skip });
                    }
                    let e = self.peek().ok_or(())?;
                    self.i += 1;
                    let unit = match e {
                        b'"' => 0x22,
                        b'\\' => 0x5c,
                        b'/' => 0x2f,
                        b'b' => 0x08,
                        b'f' => 0x0c,
                        b'n' => 0x0a,
                        b'r' => 0x0d,
                        b't' => 0x09,
                        b'u' => self.hex4()?,
                        _ => return Err(()),
                    };
                    out.push(unit);
                    seg = self.i;
                }
                0..=0x1f => return Err(()),
                _ => self.i += 1,
            }
        }
    }

    fn digits(&mut self) -> usize {
        let s = self.i;
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.i += 1;
        }
        self.i - s
    }

    fn number(&mut self) -> R<()> {
        if self.peek() == Some(b'-') {
            self.i += 1;
        }
        match self.peek() {
            Some(b'0') => self.i += 1,
            Some(b'1'..=b'9') => {
                self.digits();
            }
            _ => return Err(()),
        }
        if self.peek() == Some(b'.') {
            self.i += 1;
            if self.digits() == 0 {
                return Err(());
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.i += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.i += 1;
            }
            if self.digits() == 0 {
                return Err(());
            }
        }
        Ok(())
    }

    fn literal(&mut self, word: &[u8]) -> R<()> {
        if self.b.get(self.i..self.i + word.len()) == Some(word) {
            self.i += word.len();
            Ok(())
        } else {
            Err(())
        }
    }

    /// Skips one value (after leading whitespace has been eaten).
    fn value(&mut self) -> R<()> {
        match self.peek().ok_or(())? {
            b'{' => self.object(|_, _, _| Ok(())),
            b'[' => self.array(|p| p.value()),
            b'"' => self.string(false).map(|_| ()),
            b't' => self.literal(b"true"),
            b'f' => self.literal(b"false"),
            b'n' => self.literal(b"null"),
            _ => self.number(),
        }
    }

    /// An array, each item read by `item` (after its leading whitespace).
    fn array(&mut self, mut item: impl FnMut(&mut Self) -> R<()>) -> R<()> {
        self.enter()?;
        self.eat(b'[')?;
        self.ws();
        if self.peek() == Some(b']') {
            self.i += 1;
        } else {
            loop {
                self.ws();
                item(self)?;
                self.ws();
                match self.peek() {
                    Some(b',') => self.i += 1,
                    Some(b']') => {
                        self.i += 1;
                        break;
                    }
                    _ => return Err(()),
                }
            }
        }
        self.depth -= 1;
        Ok(())
    }

    fn enter(&mut self) -> R<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            Err(())
        } else {
            Ok(())
        }
    }

    /// An object; `member(parser, key, value_start)` runs after each member's value is skipped.
    fn object(&mut self, mut member: impl FnMut(&Self, &[u16], usize) -> R<()>) -> R<()> {
        self.enter()?;
        self.eat(b'{')?;
        self.ws();
        if self.peek() == Some(b'}') {
            self.i += 1;
        } else {
            loop {
                self.ws();
                let key = match self.string(true)? {
                    Str::Keep(k) => k,
                    Str::Skip => Vec::new(),
                };
                self.ws();
                self.eat(b':')?;
                self.ws();
                let start = self.i;
                self.value()?;
                member(self, &key, start)?;
                self.ws();
                match self.peek() {
                    Some(b',') => self.i += 1,
                    Some(b'}') => {
                        self.i += 1;
                        break;
                    }
                    _ => return Err(()),
                }
            }
        }
        self.depth -= 1;
        Ok(())
    }
}

/// Whether a key (or any decoded string) is `name`.
pub fn is_key(key: &[u16], name: &str) -> bool {
    key.iter().copied().eq(name.encode_utf16())
}

/// The members of one JSON object: each key, decoded to UTF-16 units as JavaScript holds it, with
/// the raw text of its value.
pub struct Members<'a> {
    list: Vec<(Vec<u16>, &'a [u8])>,
}

impl<'a> Members<'a> {
    /// The raw text of member `name`'s value; the last one when the key repeats, as with JSON.parse.
    pub fn get(&self, name: &str) -> Option<&'a [u8]> {
        self.list.iter().rev().find(|(k, _)| is_key(k, name)).map(|(_, v)| *v)
    }
}

/// The members of `text` when it is one JSON object (whitespace around it allowed); None when it
/// is not JSON, is another kind of value, or nests deeper than MAX_DEPTH. A member's value is
/// validated here too, so the raw text `get` hands back is valid JSON.
pub fn members(text: &[u8]) -> Option<Members<'_>> {
    let mut p = Parser { b: text, i: 0, depth: 0 };
    p.ws();
    if p.peek() != Some(b'{') {
        return None;
    }
    let mut list = Vec::new();
    p.object(|p, key, start| {
        list.push((key.to_vec(), &text[start..p.i]));
        Ok(())
    })
    .ok()?;
    p.ws();
    if p.i != text.len() {
        return None;
    }
    Some(Members { list })
}

/// The raw text of each item of `text` when it is one JSON array, else None.
pub fn items(text: &[u8]) -> Option<Vec<&[u8]>> {
    let mut p = Parser { b: text, i: 0, depth: 0 };
    p.ws();
    if p.peek() != Some(b'[') {
        return None;
    }
    let mut out = Vec::new();
    p.array(|p| {
        let start = p.i;
        p.value()?;
        out.push(&text[start..p.i]);
        Ok(())
    })
    .ok()?;
    p.ws();
    if p.i != text.len() {
        return None;
    }
    Some(out)
}

/// `text` decoded when it is one JSON string, as UTF-16 units (a lone surrogate stays one).
pub fn string(text: &[u8]) -> Option<Vec<u16>> {
    let mut p = Parser { b: text, i: 0, depth: 0 };
    p.ws();
    let units = match p.string(true).ok()? {
        Str::Keep(u) => u,
        Str::Skip => return None,
    };
    p.ws();
    if p.i != text.len() {
        return None;
    }
    Some(units)
}

/// Whether `text` is a JSON string that decodes to `s` (`===` in JavaScript).
pub fn string_is(text: &[u8], s: &str) -> bool {
    string(text).map_or(false, |u| is_key(&u, s))
}

/// `text`'s value when it is one JSON number.
pub fn number(text: &[u8]) -> Option<f64> {
    let mut p = Parser { b: text, i: 0, depth: 0 };
    p.ws();
    let start = p.i;
    p.number().ok()?;
    let end = p.i;
    p.ws();
    if p.i != text.len() {
        return None;
    }
    std::str::from_utf8(&text[start..end]).ok()?.parse().ok()
}

/// Valid JSON text with the whitespace between its tokens left out, so that a value taken from
/// a file written with line breaks still fits in one line of the stream.
pub fn compact(text: &[u8]) -> String {
    let mut out = Vec::with_capacity(text.len());
    let mut in_string = false;
    let mut escaped = false;
    for &c in text {
        if in_string {
            out.push(c);
            if escaped {
                escaped = false;
            } else if c == b'\\' {
                escaped = true;
            } else if c == b'"' {
                in_string = false;
            }
        } else if !matches!(c, b' ' | b'\t' | b'\n' | b'\r') {
            out.push(c);
            in_string = c == b'"';
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The id, method and params of a JSON-RPC request line; None when the line is not JSON, not an
/// object, or lacks an id or a method (notifications and responses).
pub fn inspect_request(line: &[u8]) -> Option<Request> {
    // Valid JSON that is not an object carries no id; invalid JSON gets the engine's error.
    let m = members(line)?;
    let id = m.get("id")?;
    let method = m.get("method")?;
    Some(Request {
        id: canonical_id(id),
        method_is_initialize: string_is(method, "initialize"),
        params: m.get("params").map(|p| String::from_utf8_lossy(p).into_owned()),
    })
}

/// `JSON.stringify` of a parsed id value, from its (valid) JSON text.
pub fn canonical_id(text: &[u8]) -> String {
    match text.first() {
        Some(b'"') => {
            let mut p = Parser { b: text, i: 0, depth: 0 };
            match p.string(true) {
                Ok(Str::Keep(units)) => quote_units(&units),
                _ => String::from_utf8_lossy(text).into_owned(),
            }
        }
        Some(b'-' | b'0'..=b'9') => {
            let s = std::str::from_utf8(text).unwrap_or("0");
            js_number(s.parse::<f64>().unwrap_or(f64::NAN))
        }
        // true, false, null, or an object or array: no engine answer can match those (its id
        // is a string, a number or null), so their text only has to be valid JSON.
        _ => String::from_utf8_lossy(text).into_owned(),
    }
}

/// A JSON array of non-empty strings (the engine command), or None.
pub fn string_array(text: &str) -> Option<Vec<String>> {
    let b = text.as_bytes();
    let mut p = Parser { b, i: 0, depth: 0 };
    let mut out = Vec::new();
    p.ws();
    p.array(|p| match p.string(true)? {
        Str::Keep(units) => String::from_utf16(&units).map(|s| out.push(s)).map_err(|_| ()),
        Str::Skip => Err(()),
    })
    .ok()?;
    p.ws();
    if p.i != b.len() || out.is_empty() || out.iter().any(|s| s.is_empty()) {
        return None;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req(s: &str) -> Option<Request> {
        inspect_request(s.as_bytes())
    }

    #[test]
    fn reads_requests_like_json_parse() {
        let r = req(r#"{"jsonrpc":"2.0","id":7,"method":"initialize","params":{"a":[1,2]}}"#).unwrap();
        assert_eq!(r, Request { id: "7".into(), method_is_initialize: true, params: Some(r#"{"a":[1,2]}"#.into()) });
        assert_eq!(req(r#" {"id":"a\u0041\n","method":"x"} "#).unwrap().id, r#""aA\n""#);
        assert_eq!(req(r#"{"id":1.50,"method":"x"}"#).unwrap().id, "1.5");
        assert_eq!(req(r#"{"id":1e21,"method":"x"}"#).unwrap().id, "1e+21");
        assert_eq!(req(r#"{"id":-0,"method":"x"}"#).unwrap().id, "0");
        assert_eq!(req(r#"{"id":1,"id":2,"method":"x"}"#).unwrap().id, "2");
        assert_eq!(req(r#"{"id":"\ud800","method":"x"}"#).unwrap().id, r#""\ud800""#);
        assert!(!req(r#"{"id":1,"method":"initialized"}"#).unwrap().method_is_initialize);
        assert!(req(r#"{"id":1,"method":"x"}"#).unwrap().params.is_none());
        for bad in [r#"{"method":"x"}"#, r#"{"id":1}"#, r#"{"id":1,"method":"x"} x"#, r#"{"id":01,"method":"x"}"#, "[1]", "nope", "{\"id\":\"\t\",\"method\":1}"] {
            assert!(req(bad).is_none(), "{bad}");
        }
        let deep = format!("{{\"id\":1,\"method\":\"x\",\"p\":{}{}}}", "[".repeat(10_000), "]".repeat(10_000));
        assert!(req(&deep).is_none());
    }

    #[test]
    fn reads_members_like_json_parse() {
        let m = members(br#" {"a":1,"b":{"c":[1,{"d":"e"}]},"a":"two","\u0062c":null} "#).unwrap();
        assert_eq!(m.get("a"), Some(&br#""two""#[..]));
        assert_eq!(m.get("b"), Some(&br#"{"c":[1,{"d":"e"}]}"#[..]));
        assert_eq!(m.get("bc"), Some(&b"null"[..]));
        assert_eq!(m.get("c"), None);
        let inner = members(m.get("b").unwrap()).unwrap();
        assert_eq!(items(inner.get("c").unwrap()).unwrap(), [&b"1"[..], &br#"{"d":"e"}"#[..]]);
        assert!(members(b"{}").unwrap().get("").is_none());
        for bad in ["[1]", "\"x\"", "{\"a\":1} x", "{\"a\":}", "{\"a\":1,}", "{'a':1}", ""] {
            assert!(members(bad.as_bytes()).is_none(), "{bad}");
        }
        let deep = format!("{{\"a\":{}{}}}", "{\"b\":".repeat(10_000), "}".repeat(10_000));
        assert!(members(deep.as_bytes()).is_none());
        assert!(items(b"{}").is_none());
        assert!(items(b"[1,]").is_none());
    }

    #[test]
    fn reads_strings_and_numbers_like_json_parse() {
        assert_eq!(string(br#""a\u00e9\ud800""#), Some(vec![0x61, 0xe9, 0xd800]));
        assert!(string_is(br#" "2.0" "#, "2.0"));
        assert!(!string_is(b"2.0", "2.0"));
        assert_eq!(string(br#""a" "b""#), None);
        assert_eq!(number(b"1"), Some(1.0));
        assert_eq!(number(b"1.0e0"), Some(1.0));
        assert_eq!(number(b"-0.5"), Some(-0.5));
        for bad in ["01", "1.", "\"1\"", "1 2", "+1", "NaN"] {
            assert_eq!(number(bad.as_bytes()), None, "{bad}");
        }
    }

    #[test]
    fn compacts_without_touching_strings() {
        assert_eq!(compact(b"{\n  \"a b\": [1, 2],\r\n\t\"c\": \"x \\\" \\\\ y\"\n}"), r#"{"a b":[1,2],"c":"x \" \\ y"}"#);
        assert_eq!(compact(b"{}"), "{}");
    }

    #[test]
    fn reads_an_engine_command() {
        assert_eq!(string_array(r#" ["/usr/bin/node", "a b"] "#), Some(vec!["/usr/bin/node".into(), "a b".into()]));
        for bad in ["[]", r#"["node", 3]"#, r#"[""]"#, "node engine", r#"{"c":1}"#] {
            assert_eq!(string_array(bad), None, "{bad}");
        }
    }
}

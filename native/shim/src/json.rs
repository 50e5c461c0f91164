//! Just enough JSON for the shim: it validates a client line the way `JSON.parse` does and reads
//! the request's id (written back as `JSON.stringify` would, since that is how the engine echoes
//! it), whether it is an `initialize`, and the raw text of its params. Nothing is built into a
//! tree: the shim relays bytes and looks at three members.

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

fn is_key(key: &[u16], name: &str) -> bool {
    key.iter().copied().eq(name.encode_utf16())
}

/// The id, method and params of a JSON-RPC request line; None when the line is not JSON, not an
/// object, or lacks an id or a method (notifications and responses).
pub fn inspect_request(line: &[u8]) -> Option<Request> {
    let mut p = Parser { b: line, i: 0, depth: 0 };
    p.ws();
    if p.peek() != Some(b'{') {
        // Valid JSON that is not an object carries no id; invalid JSON gets the engine's error.
        return None;
    }
    // Last duplicate wins, as with JSON.parse.
    let mut id: Option<(usize, usize)> = None;
    let mut method: Option<(usize, usize)> = None;
    let mut params: Option<(usize, usize)> = None;
    p.object(|p, key, start| {
        let span = Some((start, p.i));
        if is_key(key, "id") {
            id = span;
        } else if is_key(key, "method") {
            method = span;
        } else if is_key(key, "params") {
            params = span;
        }
        Ok(())
    })
    .ok()?;
    p.ws();
    if p.i != line.len() {
        return None;
    }
    let (is, ie) = id?;
    let (ms, me) = method?;
    let method_is_initialize = {
        let mut mp = Parser { b: &line[ms..me], i: 0, depth: 0 };
        matches!(mp.peek(), Some(b'"')) && matches!(mp.string(true), Ok(Str::Keep(ref k)) if is_key(k, "initialize"))
    };
    Some(Request {
        id: canonical_id(&line[is..ie]),
        method_is_initialize,
        params: params.map(|(s, e)| String::from_utf8_lossy(&line[s..e]).into_owned()),
    })
}

/// `JSON.stringify` of a parsed id value, from its (valid) JSON text.
fn canonical_id(text: &[u8]) -> String {
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

/// A string as `JSON.stringify` writes it (lone surrogates escaped, like V8).
pub fn quote(s: &str) -> String {
    quote_units(&s.encode_utf16().collect::<Vec<_>>())
}

fn quote_units(units: &[u16]) -> String {
    let mut out = String::with_capacity(units.len() + 2);
    out.push('"');
    for r in char::decode_utf16(units.iter().copied()) {
        match r {
            Ok('"') => out.push_str("\\\""),
            Ok('\\') => out.push_str("\\\\"),
            Ok('\u{8}') => out.push_str("\\b"),
            Ok('\u{c}') => out.push_str("\\f"),
            Ok('\n') => out.push_str("\\n"),
            Ok('\r') => out.push_str("\\r"),
            Ok('\t') => out.push_str("\\t"),
            Ok(c) if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            Ok(c) => out.push(c),
            Err(e) => out.push_str(&format!("\\u{:04x}", e.unpaired_surrogate())),
        }
    }
    out.push('"');
    out
}

/// Number.prototype.toString for a finite double (ECMA-262 Number::toString), from the
/// shortest round-trip digits Rust prints; non-finite values stringify as null.
pub fn js_number(x: f64) -> String {
    if !x.is_finite() {
        return "null".into();
    }
    if x == 0.0 {
        return "0".into();
    }
    let sci = format!("{:e}", x.abs());
    let (mant, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let digits: String = mant.chars().filter(|c| *c != '.').collect();
    let e: i64 = exp.parse().unwrap_or(0);
    let k = digits.len() as i64;
    let n = e + 1;
    let mut out = String::new();
    if x < 0.0 {
        out.push('-');
    }
    if k <= n && n <= 21 {
        out.push_str(&digits);
        out.extend(std::iter::repeat('0').take((n - k) as usize));
    } else if 0 < n && n <= 21 {
        out.push_str(&digits[..n as usize]);
        out.push('.');
        out.push_str(&digits[n as usize..]);
    } else if -6 < n && n <= 0 {
        out.push_str("0.");
        out.extend(std::iter::repeat('0').take((-n) as usize));
        out.push_str(&digits);
    } else {
        out.push_str(&digits[..1]);
        if k > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        out.push('e');
        out.push(if n - 1 >= 0 { '+' } else { '-' });
        out.push_str(&(n - 1).abs().to_string());
    }
    out
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
    fn writes_numbers_like_javascript() {
        for (x, s) in [(1.0, "1"), (0.1, "0.1"), (1e-7, "1e-7"), (123456789012345680000.0, "123456789012345680000"), (1.5e300, "1.5e+300"), (-2.5, "-2.5"), (0.000001, "0.000001")] {
            assert_eq!(js_number(x), s);
        }
    }

    #[test]
    fn reads_an_engine_command() {
        assert_eq!(string_array(r#" ["/usr/bin/node", "a b"] "#), Some(vec!["/usr/bin/node".into(), "a b".into()]));
        for bad in ["[]", r#"["node", 3]"#, r#"[""]"#, "node engine", r#"{"c":1}"#] {
            assert_eq!(string_array(bad), None, "{bad}");
        }
    }
}

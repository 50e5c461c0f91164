//! The boot answer, as src-main/shim/boot-answer.mjs and the early lines of src-main/shim/shim.mjs
//! do it (src-main/engine/gateway/boot-answers.ts writes the file): when the shim's first connect
//! finds no engine, the client's `initialize` and its first lists are answered from the file the
//! last engine wrote for this client and profile, while the engine starts; the engine then takes
//! the session over as a resumed one, told which lists the client already holds. Only a file
//! written under the config.json that is there now is used; anything else waits for the engine.
//!
//! The file is the engine's, in an owner-only folder, but it is read as any input: a file too
//! large, malformed or nested too deep is not used, and the client waits for the engine.

mod early;

pub use early::{Early, Reply};


use crate::home_file;
use crate::json::{self, Members};
use crate::sha256::sha256_hex;
use std::path::{Path, PathBuf};
use std::time::UNIX_EPOCH;

/// A file of another version is not used (bootFileVersion of src-shared/shim-rules.json).
pub(crate) const BOOT_FILE_VERSION: f64 = 1.0;
/// A boot file larger than this is not read, in bytes (the engine's are a few hundred kB).
pub(crate) const MAX_BOOT_FILE_BYTES: u64 = 64 << 20;

/// The lists a boot answer may hold: the method that asks for each and its key in the file and
/// the hello (BOOT_LIST_METHODS of boot-answer.mjs).
pub(crate) const LISTS: [(&str, &str); 4] =
    [("tools/list", "tools"), ("prompts/list", "prompts"), ("resources/list", "resources"), ("resources/templates/list", "resourceTemplates")];

/// The file's name for a client of a profile (bootKey of boot-answer.mjs): the first 32 hex digits
/// of the SHA-256 of `profile NUL connector NUL clientName` in UTF-8.
pub fn key(profile: &str, connector: &str, client_name: &str) -> String {
    let mut h = sha256_hex(format!("{profile}\0{connector}\0{client_name}").as_bytes());
    h.truncate(32);
    h
}

/// Where the boot answer for a client of a profile is in `home`.
pub fn file(home: &str, profile: &str, connector: &str, client_name: &[u16]) -> PathBuf {
    // Hashed as Node's createHash().update(string, 'utf8') does: a lone surrogate as U+FFFD.
    let name = String::from_utf16_lossy(client_name);
    Path::new(home).join("run").join("boot").join(format!("{}.json", key(profile, connector, &name)))
}

/// What Node's `statSync(file, { bigint: true })` gives as `${mtimeNs}:${size}`, or `-` when the
/// file cannot be read (fileStamp of boot-answer.mjs). The engine stamps the boot file with
/// config.json's, so both must write it the same.
pub fn file_stamp(file: &Path) -> String {
    let meta = match std::fs::metadata(file) {
        Ok(m) => m,
        Err(_) => return "-".into(),
    };
    let mtime = match meta.modified() {
        Ok(t) => t,
        // No platform the shim is built for lacks an mtime; should one, no file matches.
        Err(_) => return "-".into(),
    };
    let ns = match mtime.duration_since(UNIX_EPOCH) {
        Ok(d) => d.as_nanos().to_string(),
        // Before 1970 (a restored backup): Node's mtimeNs is negative.
        Err(e) => format!("-{}", e.duration().as_nanos()),
    };
    format!("{ns}:{}", meta.len())
}

/// A usable boot answer: what it answers, each part compacted to one line.
#[derive(Debug)]
pub struct BootFile {
    /// The initialize result's members (the file leaves protocolVersion out): `{…}`.
    initialize: String,
    /// Each list's result, by its place in LISTS; None when the file has none that is an object.
    lists: [Option<String>; 4],
    /// Each list's digest (raw JSON, handed back to the engine as the file has it), by its place in LISTS.
    digests: [Option<String>; 4],
    /// The protocol versions an initialize may ask for (the strings of the file's array).
    protocol_versions: Vec<Vec<u16>>,
    latest: Vec<u16>,
}

/// The boot answer for this client, or None when there is none that may be used.
pub fn read(home: &str, profile: &str, connector: &str, client_name: &[u16]) -> Option<BootFile> {
    let text = read_text(&file(home, profile, connector, client_name))?;
    parse(text.as_bytes(), profile, connector, client_name, &file_stamp(&Path::new(home).join("config.json")))
}

/// The file's text, decoded as Node's readFileSync(f, 'utf8') does (bad UTF-8 as U+FFFD); None
/// unless it is a regular file of this user, within the bound (home_file.rs).
fn read_text(file: &Path) -> Option<String> {
    let bytes = home_file::read(file, MAX_BOOT_FILE_BYTES).ok()?;
    Some(String::from_utf8_lossy(&bytes).into_owned())
}

/// The checks of readBootAnswer in boot-answer.mjs, on the file's text: who it is for, its
/// shape, and the config.json stamp it was written under (`stamp`, config.json's now).
pub fn parse(text: &[u8], profile: &str, connector: &str, client_name: &[u16], stamp: &str) -> Option<BootFile> {
    let f = json::members(text)?;
    if json::number(f.get("v")?) != Some(BOOT_FILE_VERSION) {
        return None;
    }
    if !json::string_is(f.get("profile")?, profile) || !json::string_is(f.get("connector")?, connector) || json::string(f.get("clientName")?)? != client_name {
        return None;
    }
    let initialize = f.get("initialize")?;
    json::members(initialize)?;
    let lists = json::members(f.get("lists")?)?;
    let digests = json::members(f.get("digests")?)?;
    let protocol_versions = json::items(f.get("protocolVersions")?)?.into_iter().filter_map(json::string).collect();
    let latest = json::string(f.get("latest")?)?;
    if !json::string_is(f.get("config")?, stamp) {
        return None;
    }
    let mut file = BootFile { initialize: json::compact(initialize), lists: Default::default(), digests: Default::default(), protocol_versions, latest };
    for (k, (_, name)) in LISTS.iter().enumerate() {
        // A list that is not an object is relayed to the engine, as the Node shim does.
        file.lists[k] = lists.get(name).filter(|l| json::members(l).is_some()).map(json::compact);
        file.digests[k] = digests.get(name).map(json::compact);
    }
    Some(file)
}

/// A response line, as `JSON.stringify({ jsonrpc, id, result })` writes it; `id` is already JSON.
fn response(id: &str, result: &str) -> String {
    format!("{{\"jsonrpc\":\"2.0\",\"id\":{id},\"result\":{result}}}\n")
}

/// What the shim does with a client line once initialize was answered from a boot answer.
#[derive(Debug, PartialEq)]
pub enum Answer {
    /// The initialized notification: the engine gets it replayed with the initialize.
    Drop,
    /// Answered here: the request's id as JSON text, the response line, and the list it served
    /// (its place in LISTS), if any.
    Reply { id: String, line: String, served: Option<usize> },
}

impl BootFile {
    /// The initialize answer, as the engine's SDK Server would give it: the version the client
    /// asked for when supported, else the latest (initializeFromBoot of boot-answer.mjs).
    pub fn initialize_reply(&self, id: &str, params: Option<&[u8]>) -> String {
        let asked = params.and_then(json::members).and_then(|p| p.get("protocolVersion").and_then(json::string));
        let version = match asked {
            Some(v) if self.protocol_versions.contains(&v) => v,
            _ => self.latest.clone(),
        };
        let version = json::quote_units(&version);
        // The file's members spliced after protocolVersion, as `{ protocolVersion, ...initialize }`
        // (the text is compacted: an empty object is exactly `{}`).
        let result = match &self.initialize[1..] {
            "}" => format!("{{\"protocolVersion\":{version}}}"),
            rest => format!("{{\"protocolVersion\":{version},{rest}"),
        };
        response(id, &result)
    }

    /// answerFromBoot of boot-answer.mjs: None when the line is for the engine.
    pub fn answer(&self, msg: &Members) -> Option<Answer> {
        let method = msg.get("method").and_then(json::string);
        let is = |name: &str| method.as_ref().map_or(false, |m| json::is_key(m, name));
        let id = match msg.get("id") {
            Some(id) => json::canonical_id(id),
            None => return if is("notifications/initialized") { Some(Answer::Drop) } else { None },
        };
        if is("ping") {
            return Some(Answer::Reply { line: response(&id, "{}"), id, served: None });
        }
        let k = LISTS.iter().position(|(m, _)| is(m))?;
        // A next page is the engine's: the file holds first pages only.
        if msg.get("params").and_then(json::members).map_or(false, |p| p.get("cursor").is_some()) {
            return None;
        }
        let list = self.lists[k].as_ref()?;
        Some(Answer::Reply { line: response(&id, list), id, served: Some(k) })
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    const STAMP: &str = "1700000000123456789:42";

    fn units(s: &str) -> Vec<u16> {
        s.encode_utf16().collect()
    }

    pub(crate) fn file_text(over: &[(&str, &str)]) -> String {
        let mut m: Vec<(&str, String)> = vec![
            ("v", "1".into()),
            ("profile", "\"p\"".into()),
            ("connector", "\"\"".into()),
            ("clientName", "\"c\"".into()),
            ("config", format!("\"{STAMP}\"")),
            ("protocolVersions", r#"["2025-11-25","2025-06-18"]"#.into()),
            ("latest", "\"2025-11-25\"".into()),
            ("initialize", r#"{"capabilities":{"tools":{}},"serverInfo":{"name":"switchboard-p","version":"1"}}"#.into()),
            ("lists", r#"{"tools":{"tools":[{"name":"a"}]},"prompts":[1]}"#.into()),
            ("digests", format!("{{\"tools\":\"{}\"}}", "d".repeat(64))),
        ];
        for (k, v) in over {
            match m.iter_mut().find(|(n, _)| n == k) {
                Some(e) => e.1 = v.to_string(),
                None => m.push((k, v.to_string())),
            }
        }
        format!("{{{}}}", m.iter().map(|(k, v)| format!("\"{k}\":{v}")).collect::<Vec<_>>().join(","))
    }

    fn boot(over: &[(&str, &str)]) -> Option<BootFile> {
        parse(file_text(over).as_bytes(), "p", "", &units("c"), STAMP)
    }

    fn answer(b: &BootFile, line: &str) -> Option<Answer> {
        b.answer(&json::members(line.as_bytes()).unwrap())
    }

    #[test]
    fn stamps_a_file_as_node_does() {
        let dir = std::env::temp_dir().join(format!("sb-boot-stamp-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("config.json");
        assert_eq!(file_stamp(&f), "-");
        std::fs::write(&f, b"{\"a\":1}\n").unwrap();
        let stamp = file_stamp(&f);
        let (ns, size) = stamp.split_once(':').unwrap();
        assert_eq!(size, "8");
        assert!(ns.len() >= 19 && ns.bytes().all(|b| b.is_ascii_digit()), "{stamp}");
        // A known mtime, to the nanosecond (GNU touch, as on the Linux machines the tests run on).
        #[cfg(target_os = "linux")]
        {
            let ok = std::process::Command::new("touch").arg("-d").arg("@1700000000.123456789").arg(&f).status().map_or(false, |s| s.success());
            if ok {
                assert_eq!(file_stamp(&f), "1700000000123456789:8");
            }
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn uses_only_a_file_for_this_client_and_config() {
        assert!(boot(&[]).is_some());
        // Numbers compare by value, as JSON.parse reads them.
        assert!(boot(&[("v", "1.0")]).is_some());
        for over in [
            ("v", "2"),
            ("v", "\"1\""),
            ("profile", "\"q\""),
            ("connector", "\"cursor\""),
            ("clientName", "\"C\""),
            ("config", "\"1:42\""),
            ("config", "1"),
            ("initialize", "[]"),
            ("lists", "null"),
            ("digests", "\"x\""),
            ("protocolVersions", "{}"),
            ("latest", "1"),
        ] {
            assert!(boot(&[over]).is_none(), "{over:?}");
        }
        // The last of a repeated key, as JSON.parse keeps.
        assert!(boot(&[("v", "1,\"v\":2")]).is_none());
        assert!(boot(&[("v", "2,\"v\":1")]).is_some());
        for bad in ["", "nope", "[1]", "{\"v\":1", "{}", &file_text(&[])[1..]] {
            assert!(parse(bad.as_bytes(), "p", "", &units("c"), STAMP).is_none(), "{bad}");
        }
        let deep = file_text(&[("initialize", &format!("{{\"a\":{}{}}}", "[".repeat(10_000), "]".repeat(10_000)))]);
        assert!(parse(deep.as_bytes(), "p", "", &units("c"), STAMP).is_none());
        // A lone surrogate in the client's name is never equal to a whole character.
        assert!(parse(file_text(&[("clientName", "\"\\ud800\"")]).as_bytes(), "p", "", &units("\u{fffd}"), STAMP).is_none());
    }

    #[test]
    fn answers_initialize_as_the_sdk_server_does() {
        let b = boot(&[]).unwrap();
        let reply = |params: &str| b.initialize_reply("1", Some(params.as_bytes()));
        assert_eq!(
            reply(r#"{"protocolVersion":"2025-06-18"}"#),
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{\"tools\":{}},\"serverInfo\":{\"name\":\"switchboard-p\",\"version\":\"1\"}}}\n"
        );
        assert!(reply(r#"{"protocolVersion":"1999-01-01"}"#).contains("\"protocolVersion\":\"2025-11-25\""));
        assert!(reply("{}").contains("\"protocolVersion\":\"2025-11-25\""));
        assert!(b.initialize_reply("\"x\"", None).starts_with("{\"jsonrpc\":\"2.0\",\"id\":\"x\",\"result\":{\"protocolVersion\":\"2025-11-25\","));
        // An empty initialize, and one written with line breaks: still one line of valid JSON.
        let empty = boot(&[("initialize", "{ }")]).unwrap();
        assert_eq!(empty.initialize_reply("1", None), "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"protocolVersion\":\"2025-11-25\"}}\n");
        let spaced = boot(&[("initialize", "{\n  \"a\": \"x y\",\n  \"b\": [1, 2]\n}")]).unwrap();
        assert_eq!(spaced.initialize_reply("1", None), "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"protocolVersion\":\"2025-11-25\",\"a\":\"x y\",\"b\":[1,2]}}\n");
    }

    #[test]
    fn answers_a_first_page_it_holds_and_ping() {
        let b = boot(&[]).unwrap();
        assert_eq!(
            answer(&b, r#"{"jsonrpc":"2.0","id":"x","method":"tools/list"}"#),
            Some(Answer::Reply { id: "\"x\"".into(), line: "{\"jsonrpc\":\"2.0\",\"id\":\"x\",\"result\":{\"tools\":[{\"name\":\"a\"}]}}\n".into(), served: Some(0) })
        );
        assert_eq!(answer(&b, r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#), Some(Answer::Reply { id: "2".into(), line: "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}}\n".into(), served: None }));
        assert_eq!(answer(&b, r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#), Some(Answer::Drop));
        for relayed in [
            r#"{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"cursor":"n"}}"#,
            r#"{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"cursor":null}}"#,
            // A list the file lacks, and one that is not an object.
            r#"{"jsonrpc":"2.0","id":4,"method":"resources/list"}"#,
            r#"{"jsonrpc":"2.0","id":4,"method":"prompts/list"}"#,
            r#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"a"}}"#,
            r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{}}"#,
            r#"{"jsonrpc":"2.0","method":"ping"}"#,
        ] {
            assert_eq!(answer(&b, relayed), None, "{relayed}");
        }
    }
}

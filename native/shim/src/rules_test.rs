//! The native shim against src-shared/shim-rules.json, the one definition of the rules it shares
//! with the engine and the Node shim (tests/shim/shim-rules.test.ts runs those on the same cases):
//! every case of every platform, with the platform, environment, working folder and user id the
//! case gives.

use crate::boot::{self, Answer};
use crate::json::{self, Members};
use crate::paths::{self, Context, Platform};
use crate::{engine_start, start_claim};
use std::path::Path;

const RULES: &str = include_str!("../../../src-shared/shim-rules.json");

fn rules() -> Members<'static> {
    json::members(RULES.as_bytes()).expect("shim-rules.json is one JSON object")
}

fn text(raw: &[u8]) -> String {
    String::from_utf16(&json::string(raw).expect("a string")).expect("well-formed")
}

fn get<'a>(m: &Members<'a>, name: &str) -> &'a [u8] {
    m.get(name).unwrap_or_else(|| panic!("no {name}"))
}

fn cases(name: &str) -> Vec<Members<'static>> {
    json::items(get(&rules(), name)).expect("a list").into_iter().map(|c| json::members(c).expect("a case")).collect()
}

fn platform(case: &Members) -> Platform {
    match text(get(case, "platform")).as_str() {
        "linux" => Platform::Linux,
        "darwin" => Platform::MacOs,
        "win32" => Platform::Windows,
        other => panic!("platform {other}"),
    }
}

/// The case's environment: its `env` object and nothing else.
fn env_of(case: &Members<'static>) -> impl Fn(&str) -> Option<String> {
    let vars: Vec<(String, String)> = match case.get("env") {
        Some(e) => {
            let m = json::members(e).expect("env is an object");
            ["HOME", "USERPROFILE", "APPDATA", "XDG_CONFIG_HOME", "SWITCHBOARD_HOME", "XDG_RUNTIME_DIR", "TMPDIR", "TMP", "TEMP"]
                .iter()
                .filter_map(|k| m.get(k).map(|v| (k.to_string(), text(v))))
                .collect()
        }
        None => Vec::new(),
    };
    move |name: &str| vars.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone())
}

fn constant(name: &str) -> &'static [u8] {
    get(&json::members(get(&rules(), "constants")).expect("constants"), name)
}

#[test]
fn keeps_the_constants_of_the_rules() {
    assert_eq!(text(constant("appDirName")), paths::APP_DIR_NAME);
    assert_eq!(json::number(constant("maxSocketPathBytes")), Some(paths::MAX_SOCKET_PATH_BYTES as f64));
    assert_eq!(json::number(constant("maxRuntimeDirBytes")), Some(paths::MAX_RUNTIME_DIR_BYTES as f64));
    assert_eq!(json::number(constant("bootFileVersion")), Some(boot::BOOT_FILE_VERSION));
    assert_eq!(json::number(constant("maxBootFileBytes")), Some(boot::MAX_BOOT_FILE_BYTES as f64));
    let lists = json::members(constant("bootLists")).expect("bootLists");
    for (method, name) in boot::LISTS.iter() {
        assert_eq!(lists.get(method).map(text).as_deref(), Some(*name), "{method}");
    }
    assert_eq!(json::items(constant("bootLists")), None);
    assert_eq!(text(constant("startClaimFile")), format!("run/{}", start_claim::START_CLAIM_FILE));
    assert_eq!(json::number(constant("startClaimStaleMs")), Some(start_claim::START_CLAIM_STALE.as_millis() as f64));
    assert_eq!(text(constant("engineCommandEnv")), engine_start::ENGINE_COMMAND_ENV);
    assert_eq!(text(constant("engineMallocTunables")), engine_start::ENGINE_MALLOC_TUNABLES);
}

#[test]
fn finds_every_home_of_the_rules() {
    let all = cases("homes");
    assert!(all.len() >= 10);
    for case in all {
        let env = env_of(&case);
        let cx = Context { platform: platform(&case), env: &env, cwd: text(get(&case, "cwd")), uid: 0 };
        let flag = case.get("flag").map(text);
        assert_eq!(paths::resolve_home_in(flag.as_deref(), &cx), text(get(&case, "home")), "{}", String::from_utf8_lossy(get(&case, "home")));
    }
}

#[test]
fn names_every_socket_of_the_rules() {
    let all = cases("sockets");
    assert!(all.len() >= 10);
    for case in all {
        let env = env_of(&case);
        let uid = json::number(get(&case, "uid")).expect("uid") as u32;
        let cx = Context { platform: platform(&case), env: &env, cwd: "/".into(), uid };
        let home = text(get(&case, "home"));
        assert_eq!(paths::socket_path_in(&home, &cx), text(get(&case, "socket")), "{home} {:?}", case.get("env").map(String::from_utf8_lossy));
    }
}

#[test]
fn names_every_boot_file_of_the_rules() {
    for case in cases("bootFiles") {
        let name = json::string(get(&case, "clientName")).expect("clientName");
        let file = boot::file("", &text(get(&case, "profile")), &text(get(&case, "connector")), &name);
        assert_eq!(file.to_string_lossy().replace('\\', "/"), text(get(&case, "file")));
    }
}

#[test]
fn answers_as_the_rules_say_from_a_boot_file() {
    let spec = json::members(get(&rules(), "bootAnswer")).expect("bootAnswer");
    let raw = get(&spec, "file");
    let f = json::members(raw).expect("file");
    let name = json::string(get(&f, "clientName")).expect("clientName");
    let b = boot::parse(raw, &text(get(&f, "profile")), &text(get(&f, "connector")), &name, &text(get(&f, "config"))).expect("a usable boot file");
    for case in json::items(get(&spec, "initialize")).expect("initialize").into_iter().map(|c| json::members(c).expect("case")) {
        let line = text(get(&case, "line"));
        let msg = json::members(line.as_bytes()).expect("a request");
        let reply = b.initialize_reply(&json::canonical_id(get(&msg, "id")), msg.get("params"));
        assert_eq!(reply, text(get(&case, "answer")), "{line}");
    }
    for case in json::items(get(&spec, "lines")).expect("lines").into_iter().map(|c| json::members(c).expect("case")) {
        let line = text(get(&case, "line"));
        let got = b.answer(&json::members(line.as_bytes()).expect("a message"));
        let want = get(&case, "answer");
        match got {
            None => assert_eq!(want, b"null", "{line}"),
            Some(Answer::Drop) => assert_eq!(text(want), "drop", "{line}"),
            Some(Answer::Reply { line: reply, served, .. }) => {
                assert_eq!(reply, text(want), "{line}");
                assert_eq!(served.map(|k| boot::LISTS[k].1.to_string()), case.get("served").map(text), "{line}");
            }
        }
    }
}

#[test]
fn claims_an_engine_start_where_the_rules_say() {
    let home = std::env::temp_dir().join(format!("sb-rules-claim-{}", std::process::id()));
    let h = home.to_string_lossy().into_owned();
    let file = Path::new(&h).join(text(constant("startClaimFile")));
    assert_eq!(start_claim::claim_path(&h), file);
    assert!(start_claim::claim_engine_start(&h));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), format!("{}\n", std::process::id()));
    start_claim::release_engine_start(&h);
    assert!(!file.exists());
    std::fs::remove_dir_all(&home).unwrap();
}

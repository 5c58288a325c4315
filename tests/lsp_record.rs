//! The editor's route and allowance fixes against the real binary over
//! stdio: after a check, "Record solution RRRRRR (6 steps)" writes what
//! `miauc check --fix` writes; "Allow" inserts a reason placeholder (never
//! an empty string) and asks the editor to select it; no action is listed
//! twice.

mod lsp_transport;

use serde_json::{Value, json};
use std::io::Write;
use std::process::{Child, ChildStdin, Command};
use std::sync::mpsc;
use std::time::{Duration, Instant};

const URI: &str = "file:///record/walk.miau";

const SRC: &str = "pack wfix {\n  name    \"W\"\n  version \"1.0.0\"\n  engine  1\n  rules   2\n  world   glyph \"🌊\" tagline \"T.\" accent sink\n}\n\nlevel walk {\n  title      \"Walk\"\n  introduces WIN\n  board {\n    MIAU IS YOU . . . FLAG IS WIN\n    .    .  .   . . . .    .  .\n    @    .  .   . . . f    .  .\n  }\n}\n";

struct Server {
    child: Child,
    stdin: ChildStdin,
    rx: mpsc::Receiver<Value>,
    next_id: i64,
}

impl Server {
    fn start(capabilities: Value) -> Server {
        let lsp_transport::Transport { child, stdin, rx } = lsp_transport::Transport::spawn();
        let mut s = Server {
            child,
            stdin,
            rx,
            next_id: 0,
        };
        let init = s.request("initialize", json!({ "capabilities": capabilities }));
        assert!(
            init["capabilities"]["codeActionProvider"]
                .as_bool()
                .unwrap()
        );
        s.notify("initialized", json!({}));
        s
    }

    fn send(&mut self, v: &Value) {
        let body = v.to_string();
        self.stdin
            .write_all(format!("Content-Length: {}\r\n\r\n{body}", body.len()).as_bytes())
            .unwrap();
        self.stdin.flush().unwrap();
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(&json!({ "jsonrpc": "2.0", "method": method, "params": params }));
    }

    /// The result of a request, answering the server's own requests
    /// (`window/showDocument`, progress tokens) on the way; those are
    /// collected in `asked`.
    fn request_with(&mut self, method: &str, params: Value, asked: &mut Vec<Value>) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(&json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let v = self
                .rx
                .recv_timeout(left)
                .unwrap_or_else(|_| panic!("no answer to {method}"));
            if v.get("method").is_some() && v.get("id").is_some() {
                let result = if v["method"] == "window/showDocument" {
                    json!({ "success": true })
                } else {
                    Value::Null
                };
                self.send(&json!({ "jsonrpc": "2.0", "id": v["id"], "result": result }));
                asked.push(v);
                continue;
            }
            if v["id"] == id && v.get("method").is_none() {
                assert!(v.get("error").is_none(), "{method}: {v}");
                return v["result"].clone();
            }
        }
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        self.request_with(method, params, &mut Vec::new())
    }

    fn actions(&mut self, text: &str) -> Vec<Value> {
        let end = offset_to_pos(text, text.len());
        let out = self.request(
            "textDocument/codeAction",
            json!({
                "textDocument": { "uri": URI },
                "range": { "start": { "line": 0, "character": 0 }, "end": end },
                "context": { "diagnostics": [] }
            }),
        );
        out.as_array().cloned().unwrap_or_default()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn offset_to_pos(text: &str, off: usize) -> Value {
    let line = text[..off].matches('\n').count();
    let ls = text[..off].rfind('\n').map_or(0, |i| i + 1);
    json!({ "line": line, "character": text[ls..off].encode_utf16().count() })
}

fn pos_to_offset(text: &str, pos: &Value) -> usize {
    let (line, ch) = (
        pos["line"].as_u64().unwrap() as usize,
        pos["character"].as_u64().unwrap() as usize,
    );
    let ls: usize = text.split_inclusive('\n').take(line).map(str::len).sum();
    let mut units = 0;
    for (i, c) in text[ls..].char_indices() {
        if units >= ch {
            return ls + i;
        }
        units += c.len_utf16();
    }
    text.len()
}

/// `text` with a workspace edit's edits for [`URI`] applied.
fn apply(text: &str, edit: &Value) -> String {
    let mut edits: Vec<(usize, usize, String)> = edit["changes"][URI]
        .as_array()
        .expect("edits for the document")
        .iter()
        .map(|e| {
            (
                pos_to_offset(text, &e["range"]["start"]),
                pos_to_offset(text, &e["range"]["end"]),
                e["newText"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    edits.sort_by_key(|e| std::cmp::Reverse(e.0));
    let mut out = text.to_string();
    for (s, e, t) in edits {
        out.replace_range(s..e, &t);
    }
    out
}

/// What `miauc check --fix` writes for `text`.
fn check_fix(text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("miau-lsp-record-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("walk.miau");
    std::fs::write(&path, text).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_miauc"))
        .args(["check", path.to_str().unwrap(), "--fix", "--format", "json"])
        .output()
        .unwrap();
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("recorded the solution of 1 level"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let fixed = std::fs::read_to_string(&path).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    fixed
}

/// `miauc build --format json` of `text` (in a directory of its own, named
/// by `tag`): whether it built, and its output and diagnostics.
fn build_json(text: &str, tag: &str) -> (bool, String) {
    let dir = std::env::temp_dir().join(format!("miau-lsp-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("walk.miau");
    std::fs::write(&path, text).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_miauc"))
        .args(["build", path.to_str().unwrap(), "--format", "json", "-o"])
        .arg(&dir)
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.success(), text)
}

fn titles(actions: &[Value]) -> Vec<&str> {
    actions
        .iter()
        .map(|a| a["title"].as_str().unwrap())
        .collect()
}

#[test]
fn a_checked_level_offers_to_record_the_solvers_route() {
    let mut s = Server::start(json!({}));
    s.notify(
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": URI, "languageId": "miau", "version": 1, "text": SRC } }),
    );
    // Before any check the route is unknown: nothing to record.
    let before = s.actions(SRC);
    assert!(
        !titles(&before)
            .iter()
            .any(|t| t.starts_with("Record solution")),
        "{before:?}"
    );
    let out = s.request(
        "workspace/executeCommand",
        json!({ "command": "miau.checkLevel", "arguments": [URI, "walk"] }),
    );
    assert_eq!(out["levels"][0]["level"], "walk", "{out}");
    let actions = s.actions(SRC);
    let record: Vec<&Value> = actions
        .iter()
        .filter(|a| a["title"] == "Record solution RRRRRR (6 steps)")
        .collect();
    assert_eq!(record.len(), 1, "{actions:?}");
    let record = record[0];
    assert_eq!(record["kind"], "quickfix");
    assert_eq!(record["isPreferred"], true);
    // It settles M337's missing solution and steps (one diagnostic), not
    // the category.
    let settled: Vec<&str> = record["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["message"].as_str().unwrap())
        .collect();
    assert_eq!(settled.len(), 1, "{settled:?}");
    assert!(
        settled[0].contains("records no solution or steps"),
        "{settled:?}"
    );
    // The same text as check --fix writes.
    let fixed = apply(SRC, &record["edit"]);
    assert_eq!(fixed, check_fix(SRC));
    assert!(
        fixed.contains("  solution   \"RRRRRR\"\n  steps      6\n"),
        "{fixed}"
    );
    // Once recorded, the level's text changed: the old check no longer
    // applies and nothing is offered twice.
    s.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": URI, "version": 2 }, "contentChanges": [{ "text": fixed }] }),
    );
    let after = s.actions(&fixed);
    assert!(
        !titles(&after)
            .iter()
            .any(|t| t.starts_with("Record solution")),
        "{after:?}"
    );
}

#[test]
fn allow_inserts_a_selected_reason_placeholder_once() {
    let caps = json!({ "window": { "showDocument": { "support": true } } });
    let mut s = Server::start(caps);
    s.notify(
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": URI, "languageId": "miau", "version": 1, "text": SRC } }),
    );
    let actions = s.actions(SRC);
    // No two actions with the same title and edit (M337's missing solution
    // and missing steps both offer the same "Allow").
    for (i, a) in actions.iter().enumerate() {
        for b in &actions[i + 1..] {
            assert!(
                !(a["title"] == b["title"] && a["edit"] == b["edit"]),
                "listed twice: {a}"
            );
        }
    }
    let allow: Vec<&Value> = actions
        .iter()
        .filter(|a| {
            a["title"] == "Allow level-metadata-missing (M337) in level walk"
                && a["edit"].to_string().contains("level-metadata-missing")
        })
        .collect();
    assert_eq!(allow.len(), 1, "{actions:?}");
    let allow = allow[0];
    let edited = apply(SRC, &allow["edit"]);
    assert!(
        edited.contains("  allow level-metadata-missing \"say why this is by design\"\n  board {"),
        "{edited}"
    );
    assert!(!edited.contains("\"\""), "an empty reason: {edited}");
    // The command selects the placeholder in the edited text.
    let cmd = &allow["command"];
    assert_eq!(cmd["command"], "miau.select", "{allow}");
    let range = &cmd["arguments"][1];
    let (a, b) = (
        pos_to_offset(&edited, &range["start"]),
        pos_to_offset(&edited, &range["end"]),
    );
    assert_eq!(&edited[a..b], "say why this is by design");
    s.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": URI, "version": 2 }, "contentChanges": [{ "text": edited }] }),
    );
    let mut asked = Vec::new();
    s.request_with(
        "workspace/executeCommand",
        json!({ "command": "miau.select", "arguments": cmd["arguments"] }),
        &mut asked,
    );
    let show = asked
        .iter()
        .find(|v| v["method"] == "window/showDocument")
        .expect("the server asks the editor to select the placeholder");
    assert_eq!(show["params"]["uri"], URI);
    assert_eq!(&show["params"]["selection"], range);
    // Left as it is, the placeholder is reported: the allowance has no reason yet.
    let (_, text) = build_json(&edited, "allow");
    let m239: Vec<&str> = text.lines().filter(|l| l.contains("\"M239\"")).collect();
    assert_eq!(m239.len(), 1, "{text}");
    assert!(
        m239[0].contains("still has the placeholder reason"),
        "{text}"
    );
}

#[test]
fn without_show_document_the_placeholder_is_plain_text() {
    let mut s = Server::start(json!({}));
    s.notify(
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": URI, "languageId": "miau", "version": 1, "text": SRC } }),
    );
    let actions = s.actions(SRC);
    let allow = actions
        .iter()
        .find(|a| {
            a["title"]
                .as_str()
                .is_some_and(|t| t.starts_with("Allow ") && t.ends_with(" in level walk"))
        })
        .expect("an Allow action");
    assert!(allow.get("command").is_none(), "{allow}");
    assert!(
        apply(SRC, &allow["edit"]).contains("\"say why this is by design\""),
        "{allow}"
    );
}

/// A pack-wide warning (a world of one level, while it is drafted) offers
/// "Allow world-level-count (M335) in the pack": an `allow` after the header's last statement, which
/// builds and silences it once its reason is written.
#[test]
fn a_pack_wide_warning_is_allowed_in_the_pack_header() {
    let mut s = Server::start(json!({}));
    s.notify(
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": URI, "languageId": "miau", "version": 1, "text": SRC } }),
    );
    let actions = s.actions(SRC);
    let allow: Vec<&Value> = actions
        .iter()
        .filter(|a| {
            a["title"] == "Allow world-level-count (M335) in the pack"
                && a["edit"].to_string().contains("world-level-count")
        })
        .collect();
    assert_eq!(allow.len(), 1, "{actions:?}");
    let edited = apply(SRC, &allow[0]["edit"]);
    assert!(
        edited
            .contains("accent sink\n  allow world-level-count \"say why this is by design\"\n}\n"),
        "{edited}"
    );
    let reasoned = edited.replace("say why this is by design", "Drafted: one level so far.");
    let (built, text) = build_json(&reasoned, "pack-allow");
    assert!(built, "{text}");
    let m335: Vec<&str> = text.lines().filter(|l| l.contains("\"M335\"")).collect();
    assert_eq!(m335.len(), 1, "{text}");
    assert!(
        m335[0].contains("(allowed: Drafted: one level so far.)") && m335[0].contains("\"info\""),
        "{text}"
    );
}

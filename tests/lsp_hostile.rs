//! A malformed or hostile client against the real binary over stdio: invalid
//! JSON-RPC, unknown methods, out-of-range positions, a 10 MB document and
//! edits faster than analysis. Afterwards the server must still answer a
//! hover and shut down cleanly.

mod long_row;
mod lsp_transport;

use long_row::long_row;
use serde_json::{Value, json};
use std::io::Write;
use std::process::{Child, ChildStdin};
use std::sync::mpsc;
use std::time::{Duration, Instant};

const TRAP: &str = include_str!("fixtures/lsp/noun_trap.miau");
const URI: &str = "file:///hostile/doors.miau";

struct Server {
    child: Child,
    stdin: ChildStdin,
    rx: mpsc::Receiver<Value>,
    /// Messages read while waiting for another one.
    backlog: Vec<Value>,
}

impl Server {
    fn start() -> Server {
        let lsp_transport::Transport { child, stdin, rx } = lsp_transport::Transport::spawn();
        Server {
            child,
            stdin,
            rx,
            backlog: Vec::new(),
        }
    }

    fn raw(&mut self, bytes: &[u8]) {
        let _ = self.stdin.write_all(bytes);
        let _ = self.stdin.flush();
    }

    fn send(&mut self, v: &Value) {
        let body = v.to_string();
        self.raw(format!("Content-Length: {}\r\n\r\n{body}", body.len()).as_bytes());
    }

    /// The response to request `id`, within `secs`.
    fn response(&mut self, id: i64, secs: u64) -> Value {
        if let Some(i) = self
            .backlog
            .iter()
            .position(|v| v["id"] == id && v.get("method").is_none())
        {
            return self.backlog.remove(i);
        }
        let deadline = Instant::now() + Duration::from_secs(secs);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let v = self
                .rx
                .recv_timeout(left)
                .unwrap_or_else(|_| panic!("no response to request {id} within {secs} s"));
            if v["id"] == id && v.get("method").is_none() {
                return v;
            }
        }
    }

    /// The first notification matching `pred`, within `secs`.
    fn notification(&mut self, secs: u64, pred: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + Duration::from_secs(secs);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let v = self.rx.recv_timeout(left).expect("notification in time");
            if pred(&v) {
                return v;
            }
            self.backlog.push(v);
        }
    }
}

fn pos_of(text: &str, needle: &str) -> Value {
    let off = text.find(needle).unwrap();
    let line = text[..off].matches('\n').count();
    let ls = text[..off].rfind('\n').map_or(0, |i| i + 1);
    json!({ "line": line, "character": text[ls..off].encode_utf16().count() })
}

#[test]
fn hostile_traffic_never_crashes_or_wedges_the_server() {
    let mut s = Server::start();

    // Before initialize: garbage, then JSON that isn't JSON-RPC, then a request.
    s.raw(b"Content-Length: 5\r\n\r\n{{{{{");
    s.raw(b"Content-Length: 9\r\n\r\n{\"foo\":1}");
    s.raw(b"X-Nonsense: 1\r\n\r\n");
    s.raw(b"Content-Length: 2\r\nContent-Type: application/json; charset=latin1\r\n\r\n{}");
    s.send(&json!({ "jsonrpc": "2.0", "id": 1, "method": "textDocument/hover", "params": {} }));
    let r = s.response(1, 10);
    assert!(
        r.get("error").is_some(),
        "requests before initialize fail: {r}"
    );

    s.send(&json!({ "jsonrpc": "2.0", "id": 2, "method": "initialize", "params": { "capabilities": {} } }));
    let r = s.response(2, 10);
    assert!(r["result"]["capabilities"].is_object(), "{r}");
    s.send(&json!({ "jsonrpc": "2.0", "method": "initialized", "params": {} }));

    // Unknown methods, wrong parameter shapes, requests about documents never opened.
    s.send(&json!({ "jsonrpc": "2.0", "id": 3, "method": "miau/nope", "params": {} }));
    assert_eq!(s.response(3, 10)["error"]["code"], -32601);
    s.send(&json!({ "jsonrpc": "2.0", "method": "miau/notify-nope", "params": [1, 2] }));
    s.send(
        &json!({ "jsonrpc": "2.0", "id": 4, "method": "textDocument/hover", "params": "nonsense" }),
    );
    assert!(s.response(4, 10).get("error").is_some());
    s.send(&json!({ "jsonrpc": "2.0", "id": 5, "method": "textDocument/hover",
        "params": { "textDocument": { "uri": "file:///never/opened.miau" }, "position": { "line": 0, "character": 0 } } }));
    assert_eq!(s.response(5, 10)["result"], Value::Null);
    s.send(&json!({ "jsonrpc": "2.0", "method": "textDocument/didChange",
        "params": { "textDocument": { "uri": "not a uri at all", "version": 1 }, "contentChanges": [] } }));
    s.raw(b"Content-Length: 2\r\n\r\n[]");
    s.raw(b"Content-Length: 4\r\n\r\nnull");

    // A 10 MB document: refused politely, not analysed.
    let big_uri = "file:///hostile/big.miau";
    let big = format!(
        "{}level x {{\n",
        "// padding padding padding padding padding padding padding\n"
            .repeat(10 * 1024 * 1024 / 60)
    );
    s.send(&json!({ "jsonrpc": "2.0", "method": "textDocument/didOpen",
        "params": { "textDocument": { "uri": big_uri, "languageId": "miau", "version": 1, "text": big } } }));
    let d = s.notification(30, |v| {
        v["method"] == "textDocument/publishDiagnostics" && v["params"]["uri"] == big_uri
    });
    assert!(
        d["params"]["diagnostics"][0]["message"]
            .as_str()
            .unwrap()
            .contains("bytes"),
        "{d}"
    );
    s.send(&json!({ "jsonrpc": "2.0", "id": 6, "method": "textDocument/hover",
        "params": { "textDocument": { "uri": big_uri }, "position": { "line": 5, "character": 3 } } }));
    assert_eq!(s.response(6, 10)["result"], Value::Null);

    // Edits far faster than analysis, with positions out of range in between.
    s.send(&json!({ "jsonrpc": "2.0", "method": "textDocument/didOpen",
        "params": { "textDocument": { "uri": URI, "languageId": "miau", "version": 1, "text": TRAP } } }));
    let mut id = 100;
    for v in 2..300 {
        let text = if v % 3 == 0 {
            TRAP[..TRAP.len() * (v % 7) / 7].to_string()
        } else {
            TRAP.replace("RRR", &"R".repeat(v % 5))
        };
        s.send(&json!({ "jsonrpc": "2.0", "method": "textDocument/didChange",
            "params": { "textDocument": { "uri": URI, "version": v }, "contentChanges": [{ "text": text }] } }));
        if v % 25 == 0 {
            id += 1;
            s.send(&json!({ "jsonrpc": "2.0", "id": id, "method": "textDocument/completion",
                "params": { "textDocument": { "uri": URI }, "position": { "line": 4_000_000_000u32, "character": 4_000_000_000u32 } } }));
        }
    }
    s.send(&json!({ "jsonrpc": "2.0", "method": "textDocument/didChange",
        "params": { "textDocument": { "uri": URI, "version": 300 }, "contentChanges": [{ "text": TRAP }] } }));
    let d = s.notification(30, |v| {
        v["method"] == "textDocument/publishDiagnostics"
            && v["params"]["uri"] == URI
            && v["params"]["version"] == 300
    });
    assert!(
        d["params"]["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["code"] == "M301")
    );
    for r in 101..=id {
        assert!(s.response(r, 10).get("result").is_some());
    }

    // Still answering: a hover naming the sentence, then a clean shutdown.
    s.send(
        &json!({ "jsonrpc": "2.0", "id": 7, "method": "textDocument/hover",
        "params": { "textDocument": { "uri": URI }, "position": pos_of(TRAP, "DOOR IS   SHUT") } }),
    );
    let h = s.response(7, 10);
    assert!(
        h["result"]["contents"]["value"]
            .as_str()
            .unwrap()
            .contains("`DOOR IS SHUT`"),
        "{h}"
    );
    s.send(&json!({ "jsonrpc": "2.0", "id": 8, "method": "shutdown" }));
    assert_eq!(s.response(8, 10)["result"], Value::Null);
    s.send(&json!({ "jsonrpc": "2.0", "method": "exit" }));
    drop(s.stdin);
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        if let Some(status) = s.child.try_wait().unwrap() {
            assert!(status.success(), "{status}");
            break;
        }
        assert!(Instant::now() < deadline, "the server didn't exit");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Starts a server and completes the initialize handshake.
fn initialized() -> Server {
    let mut s = Server::start();
    s.send(&json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": { "capabilities": {} } }));
    assert!(s.response(1, 10)["result"]["capabilities"].is_object());
    s.send(&json!({ "jsonrpc": "2.0", "method": "initialized", "params": {} }));
    s
}

/// The exit status of a server whose input was closed, within 10 s.
fn exit_status(mut s: Server) -> std::process::ExitStatus {
    drop(s.stdin);
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        if let Some(status) = s.child.try_wait().unwrap() {
            return status;
        }
        assert!(Instant::now() < deadline, "the server didn't exit");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn frame(v: &Value) -> Vec<u8> {
    let body = v.to_string();
    format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
}

#[test]
fn a_frame_with_a_bad_length_does_not_deafen_the_server() {
    let mut s = initialized();
    let note = json!({ "jsonrpc": "2.0", "method": "initialized", "params": {} }).to_string();
    let ask = |id: i64| frame(&json!({ "jsonrpc": "2.0", "id": id, "method": "miau/nope" }));
    // Too long: the length swallows the next frame, which follows at once.
    let mut bytes = format!("Content-Length: {}\r\n\r\n{note}", note.len() + 400).into_bytes();
    bytes.extend(ask(10));
    s.raw(&bytes);
    assert_eq!(s.response(10, 10)["error"]["code"], -32601);
    // Too short: the rest of the body is glued onto the next header.
    let mut bytes = format!("Content-Length: 10\r\n\r\n{note}").into_bytes();
    bytes.extend(ask(11));
    s.raw(&bytes);
    assert_eq!(s.response(11, 10)["error"]["code"], -32601);
    // Missing: a header block without a length, then the body and the next frame.
    let mut bytes = format!("Content-Type: application/vscode-jsonrpc\r\n\r\n{note}").into_bytes();
    bytes.extend(ask(12));
    s.raw(&bytes);
    assert_eq!(s.response(12, 10)["error"]["code"], -32601);
    // Not a number.
    let mut bytes = format!("Content-Length: lots\r\n\r\n{note}").into_bytes();
    bytes.extend(ask(13));
    s.raw(&bytes);
    assert_eq!(s.response(13, 10)["error"]["code"], -32601);
    s.send(&json!({ "jsonrpc": "2.0", "id": 14, "method": "shutdown" }));
    assert_eq!(s.response(14, 10)["result"], Value::Null);
    s.send(&json!({ "jsonrpc": "2.0", "method": "exit" }));
    assert!(exit_status(s).success());
}

#[test]
fn dollar_requests_get_an_answer() {
    let mut s = initialized();
    s.send(&json!({ "jsonrpc": "2.0", "id": 5, "method": "$/somethingNew", "params": {} }));
    let r = s.response(5, 10);
    assert_eq!(r["error"]["code"], -32601, "{r}");
    // A `$/` notification still gets none, and the server goes on.
    s.send(&json!({ "jsonrpc": "2.0", "method": "$/setTrace", "params": { "value": "off" } }));
    s.send(&json!({ "jsonrpc": "2.0", "id": 6, "method": "shutdown" }));
    assert_eq!(s.response(6, 10)["result"], Value::Null);
}

#[test]
fn exit_without_shutdown_exits_1() {
    let mut s = initialized();
    s.send(&json!({ "jsonrpc": "2.0", "method": "exit" }));
    assert_eq!(exit_status(s).code(), Some(1));
}

/// A server whose client supports server-created progress, with the noun
/// trap fixture open.
fn opened_with_progress() -> Server {
    let mut s = Server::start();
    s.send(&json!({
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": { "capabilities": { "window": { "workDoneProgress": true } } }
    }));
    assert!(s.response(1, 10)["result"]["capabilities"].is_object());
    s.send(&json!({ "jsonrpc": "2.0", "method": "initialized", "params": {} }));
    s.send(&json!({
        "jsonrpc": "2.0", "method": "textDocument/didOpen",
        "params": { "textDocument": { "uri": URI, "languageId": "miau", "version": 1, "text": TRAP } }
    }));
    s
}

#[test]
fn a_client_that_never_accepts_a_progress_token_does_not_hold_up_a_check() {
    let mut s = opened_with_progress();
    // No token from the client: the server asks for one and gets no answer.
    s.send(&json!({
        "jsonrpc": "2.0", "id": 2, "method": "workspace/executeCommand",
        "params": { "command": "miau.checkPack", "arguments": [URI] }
    }));
    let create = s.notification(30, |v| v["method"] == "window/workDoneProgress/create");
    assert!(
        create["id"].is_number() || create["id"].is_string(),
        "{create}"
    );
    // The check still runs, without progress, and answers.
    let r = s.notification(60, |v| v["id"] == 2 && v.get("method").is_none());
    assert!(r.get("error").is_none(), "{r}");
    assert!(!r["result"].is_null(), "{r}");
    let token = &create["params"]["token"];
    assert!(
        !s.backlog
            .iter()
            .any(|v| v["method"] == "$/progress" && v["params"]["token"] == *token),
        "progress reported on a token the client never accepted: {:?}",
        s.backlog
    );
    s.send(&json!({ "jsonrpc": "2.0", "id": 3, "method": "shutdown" }));
    assert_eq!(s.response(3, 10)["result"], Value::Null);
}

#[test]
fn a_burst_of_saves_runs_one_check() {
    let mut s = opened_with_progress();
    for _ in 0..12 {
        s.send(&json!({
            "jsonrpc": "2.0", "method": "textDocument/didSave",
            "params": { "textDocument": { "uri": URI } }
        }));
    }
    // Every check on save asks for a progress token first: accept each one
    // and count them until a check has ended and the server has been quiet
    // for two seconds more.
    let mut created = 0;
    let mut ended = false;
    let mut quiet_since = Instant::now();
    let deadline = Instant::now() + Duration::from_secs(120);
    while Instant::now() < deadline {
        let Ok(v) = s.rx.recv_timeout(Duration::from_millis(200)) else {
            if ended && quiet_since.elapsed() > Duration::from_secs(2) {
                break;
            }
            continue;
        };
        quiet_since = Instant::now();
        if v["method"] == "window/workDoneProgress/create" {
            created += 1;
            s.send(&json!({ "jsonrpc": "2.0", "id": v["id"], "result": null }));
        }
        if v["method"] == "$/progress" && v["params"]["value"]["kind"] == "end" {
            ended = true;
        }
    }
    assert!(ended, "no check ran after the saves");
    assert!(
        (1..=2).contains(&created),
        "12 saves in a burst started {created} checks"
    );
    s.send(&json!({ "jsonrpc": "2.0", "id": 2, "method": "shutdown" }));
    assert_eq!(s.response(2, 10)["result"], Value::Null);
}

const LONG_URI: &str = "file:///hostile/long-row.miau";

/// A server with the 100,000-cell row and the noun trap open, both analysed.
fn long_row_and_trap() -> Server {
    let mut s = initialized();
    for (uri, text) in [(LONG_URI, long_row(100_000)), (URI, TRAP.to_string())] {
        s.send(&json!({
            "jsonrpc": "2.0", "method": "textDocument/didOpen",
            "params": { "textDocument": { "uri": uri, "languageId": "miau", "version": 1, "text": text } }
        }));
    }
    let published = |v: &Value, uri: &str| {
        v["method"] == "textDocument/publishDiagnostics" && v["params"]["uri"] == uri
    };
    for uri in [LONG_URI, URI] {
        if !s.backlog.iter().any(|v| published(v, uri)) {
            s.notification(120, |v| published(v, uri));
        }
    }
    s
}

fn semantic_tokens(id: i64) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "method": "textDocument/semanticTokens/full",
        "params": { "textDocument": { "uri": LONG_URI } } })
}

#[test]
fn a_long_row_does_not_hold_up_a_hover_on_another_document() {
    let mut s = long_row_and_trap();
    // Three token requests on the long row, then a hover on the small file,
    // in one write: all four are in flight together (the protocol layer runs
    // four at a time). Work done on the I/O task would answer them strictly
    // in order; off it, the hover needn't wait for the rows.
    let hover = json!({ "jsonrpc": "2.0", "id": 20, "method": "textDocument/hover",
        "params": { "textDocument": { "uri": URI }, "position": pos_of(TRAP, "SHUT .") } });
    let mut burst = Vec::new();
    for id in 10..13 {
        burst.extend(frame(&semantic_tokens(id)));
    }
    burst.extend(frame(&hover));
    let sent = Instant::now();
    s.raw(&burst);
    let mut order = Vec::new();
    let mut hover_after = None;
    let mut tokens = 0;
    while order.len() < 4 {
        let v =
            s.rx.recv_timeout(Duration::from_secs(120))
                .expect("all four answered");
        let Some(id) = v["id"].as_i64().filter(|_| v.get("method").is_none()) else {
            continue;
        };
        if id == 20 {
            assert!(v["result"]["contents"]["value"].is_string(), "{v}");
            hover_after = Some(sent.elapsed());
        } else {
            tokens = v["result"]["data"].as_array().map_or(0, Vec::len) / 5;
        }
        order.push(id);
    }
    let hover_after = hover_after.expect("hover answered");
    eprintln!(
        "order {order:?}; hover after {hover_after:?}, all after {:?}",
        sent.elapsed()
    );
    assert!(tokens > 80_000, "the row's words are tokens: {tokens}");
    assert_ne!(
        order.last(),
        Some(&20),
        "the hover waited for every row: {order:?}"
    );
    assert!(
        hover_after < Duration::from_secs(2),
        "hover took {hover_after:?}"
    );
}

#[test]
fn a_cancelled_heavy_request_is_answered_request_cancelled() {
    let mut s = long_row_and_trap();
    let mut burst = frame(&semantic_tokens(30));
    burst.extend(frame(
        &json!({ "jsonrpc": "2.0", "method": "$/cancelRequest", "params": { "id": 30 } }),
    ));
    s.raw(&burst);
    let r = s.response(30, 60);
    let shown: String = r.to_string().chars().take(200).collect();
    assert_eq!(r["error"]["code"], -32800, "{shown}");
    // The server goes on: the next request is answered in full.
    s.send(&semantic_tokens(31));
    let r = s.response(31, 60);
    let shown: String = r.to_string().chars().take(200).collect();
    assert!(
        r["result"]["data"]
            .as_array()
            .is_some_and(|d| !d.is_empty()),
        "{shown}"
    );
}

/// A server started on `folder` as its one workspace folder.
fn initialized_in(folder: &std::path::Path, capabilities: Value) -> Server {
    let mut s = Server::start();
    let uri = format!("file://{}", folder.display());
    s.send(&json!({
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {
            "capabilities": capabilities,
            "workspaceFolders": [{ "uri": uri, "name": "w" }]
        }
    }));
    assert!(s.response(1, 10)["result"]["capabilities"].is_object());
    s.send(&json!({ "jsonrpc": "2.0", "method": "initialized", "params": {} }));
    s
}

#[test]
fn the_workspace_scan_follows_the_command_lines_file_rules() {
    let dir = std::env::temp_dir().join(format!("miau-lsp-walk-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    // A pack with a mistake, a link to an endless device named like a pack,
    // and a fan of links to the folder itself (12^8 paths walked naively).
    std::fs::write(dir.join("a.miau"), "pack a {\n").unwrap();
    std::os::unix::fs::symlink("/dev/zero", dir.join("b.miau")).unwrap();
    for i in 0..12 {
        std::os::unix::fs::symlink(".", dir.join(format!("loop{i:02}"))).unwrap();
    }
    let start = Instant::now();
    let mut s = initialized_in(&dir, json!({}));
    let a_uri = format!("file://{}/a.miau", dir.display());
    let published = s.notification(30, |v| {
        v["method"] == "textDocument/publishDiagnostics" && v["params"]["uri"] == a_uri
    });
    assert!(
        !published["params"]["diagnostics"]
            .as_array()
            .unwrap()
            .is_empty()
    );
    // The server still answers at once, and never analysed the device.
    s.send(&json!({ "jsonrpc": "2.0", "id": 2, "method": "shutdown" }));
    assert_eq!(s.response(2, 10)["result"], Value::Null);
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "{:?}",
        start.elapsed()
    );
    assert!(
        !s.backlog.iter().any(|v| v["params"]["uri"]
            .as_str()
            .is_some_and(|u| u.contains("b.miau"))
            || v["params"]["uri"]
                .as_str()
                .is_some_and(|u| u.contains("loop"))),
        "{:?}",
        s.backlog
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `miau.select` with a range, as the "Allow" quick fix sends it.
fn select(id: i64) -> Value {
    json!({
        "jsonrpc": "2.0", "id": id, "method": "workspace/executeCommand",
        "params": { "command": "miau.select", "arguments": [URI,
            { "start": { "line": 0, "character": 0 }, "end": { "line": 0, "character": 1 } }] }
    })
}

#[test]
fn select_never_waits_on_a_client_without_show_document() {
    let mut s = initialized();
    // The client declared no showDocument support: nothing is asked.
    for id in 2..6 {
        s.send(&select(id));
    }
    for id in 2..6 {
        assert!(s.response(id, 5).get("error").is_none());
    }
    assert!(
        !s.backlog
            .iter()
            .any(|v| v["method"] == "window/showDocument"),
        "{:?}",
        s.backlog
    );
    s.send(&json!({ "jsonrpc": "2.0", "id": 9, "method": "shutdown" }));
    assert_eq!(s.response(9, 10)["result"], Value::Null);
}

#[test]
fn select_gives_up_on_a_client_that_never_shows_the_document() {
    let dir = std::env::temp_dir().join(format!("miau-lsp-show-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut s = initialized_in(
        &dir,
        json!({ "window": { "showDocument": { "support": true } } }),
    );
    // Four selections the client never answers: each is answered within
    // the time-out, and the server still hears a request after them.
    for id in 2..6 {
        s.send(&select(id));
    }
    let asked = s.notification(10, |v| v["method"] == "window/showDocument");
    assert!(asked["params"]["selection"].is_object(), "{asked}");
    for id in 2..6 {
        assert!(s.response(id, 10).get("error").is_none());
    }
    s.send(&json!({ "jsonrpc": "2.0", "id": 9, "method": "shutdown" }));
    assert_eq!(s.response(9, 5)["result"], Value::Null);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_document_mentioning_content_length_across_a_read_is_not_dropped() {
    let mut s = initialized();
    let uri = "file:///hostile/mention.miau";
    // The text holds `content-length:` and a long run of digits; the frame
    // is written in two parts, the first ending inside the digits, so the
    // server's first read of the body ends there.
    let text = format!(
        "// content-length: {}\npack mention {{\n",
        "7".repeat(20_000)
    );
    let body = json!({ "jsonrpc": "2.0", "method": "textDocument/didOpen",
        "params": { "textDocument": { "uri": uri, "languageId": "miau", "version": 1, "text": text } } })
    .to_string();
    let cut = body.find("7777").unwrap() + 5_000;
    s.raw(format!("Content-Length: {}\r\n\r\n", body.len()).as_bytes());
    s.raw(&body.as_bytes()[..cut]);
    std::thread::sleep(Duration::from_millis(200));
    s.raw(&body.as_bytes()[cut..]);
    let d = s.notification(30, |v| {
        v["method"] == "textDocument/publishDiagnostics" && v["params"]["uri"] == uri
    });
    assert!(
        !d["params"]["diagnostics"].as_array().unwrap().is_empty(),
        "{d}"
    );
}

#[test]
fn a_deep_tree_a_link_loop_and_a_huge_file_in_the_workspace() {
    let dir = std::env::temp_dir().join(format!("miau-lsp-deep-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    // Directories nested as deep as a path may name (about two thousand),
    // a pack with a mistake at the bottom.
    let mut deep = dir.clone();
    while deep.as_os_str().len() < 4000 {
        deep.push("d");
    }
    std::fs::create_dir_all(&deep).unwrap();
    std::fs::write(deep.join("x.miau"), "pack x {\n").unwrap();
    // Two links naming each other, and a file of 64 GiB (sparse: nothing
    // is written) that reading before checking its size would never finish.
    std::os::unix::fs::symlink("loop2.miau", dir.join("loop1.miau")).unwrap();
    std::os::unix::fs::symlink("loop1.miau", dir.join("loop2.miau")).unwrap();
    let huge = std::fs::File::create(dir.join("huge.miau")).unwrap();
    huge.set_len(64 << 30).unwrap();
    drop(huge);
    let start = Instant::now();
    let mut s = initialized_in(&dir, json!({}));
    let deep_uri = format!("file://{}/x.miau", deep.display());
    let published = s.notification(30, |v| {
        v["method"] == "textDocument/publishDiagnostics" && v["params"]["uri"] == deep_uri
    });
    assert!(
        !published["params"]["diagnostics"]
            .as_array()
            .unwrap()
            .is_empty()
    );
    s.send(&json!({ "jsonrpc": "2.0", "id": 2, "method": "shutdown" }));
    assert_eq!(s.response(2, 10)["result"], Value::Null);
    assert!(
        start.elapsed() < Duration::from_secs(30),
        "{:?}",
        start.elapsed()
    );
    assert!(
        !s.backlog.iter().any(|v| v["params"]["uri"]
            .as_str()
            .is_some_and(|u| u.contains("huge") || u.contains("loop"))),
        "{:?}",
        s.backlog
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A 1 MB document of levels that each hold a mistake: the server publishes
/// a bounded list (the level limit, M211, and the parser's capped list)
/// within seconds, where it once took half a minute and 1.4 GB.
#[test]
fn a_megabyte_of_broken_levels_publishes_a_bounded_list() {
    let mut text = String::from(
        "pack many {\n  name \"Many\"\n  version \"1.0.0\"\n  engine 1\n  rules 2\n}\n\n",
    );
    let mut i = 0;
    while text.len() < 1 << 20 {
        text.push_str(&format!("level l{i} {{ ? }}\n"));
        i += 1;
    }
    let mut s = initialized();
    let uri = "file:///hostile/many.miau";
    s.send(
        &json!({ "jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
        "textDocument": { "uri": uri, "languageId": "miau", "version": 1, "text": text } } }),
    );
    let published = s.notification(30, |v| {
        v["method"] == "textDocument/publishDiagnostics" && v["params"]["uri"] == uri
    });
    let diags = published["params"]["diagnostics"]
        .as_array()
        .expect("a list")
        .clone();
    assert!(diags.len() <= 4 * 1024, "{} diagnostics", diags.len());
    assert!(
        diags.iter().any(|d| d["code"] == "M211"
            && d["message"]
                .as_str()
                .is_some_and(|m| m.contains(&format!("The pack has {i} levels")))),
        "no M211 among {} diagnostics",
        diags.len()
    );
    assert!(exit_status(s).code().is_some());
}

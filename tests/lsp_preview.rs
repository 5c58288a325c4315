//! The preview's custom requests against the real server over stdio:
//! `miau/level` draws a level after a route, `miau/step` plays one action
//! (a move, `undo`, `restart`), edits redraw with the same route, and bad
//! parameters are errors. The exchanges are also the fixture the webview's
//! browser test answers keys with (`editors/vscode/test/fixtures/`), so
//! that fixture is checked here to be what the server says today
//! (`MIAU_RECORD=1` rewrites it).

mod lsp_transport;

use serde_json::{Value, json};
use std::io::Write;
use std::process::{Child, ChildStdin};
use std::sync::mpsc;
use std::time::Duration;

const URI: &str = "file:///preview/crate-works.miau";
const FIXTURE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/editors/vscode/test/fixtures/preview-door-stop.json"
);

struct Server {
    child: Child,
    stdin: ChildStdin,
    rx: mpsc::Receiver<Value>,
    next: i64,
}

impl Server {
    fn start() -> Server {
        let lsp_transport::Transport { child, stdin, rx } = lsp_transport::Transport::spawn();
        let mut s = Server {
            child,
            stdin,
            rx,
            next: 0,
        };
        s.call("initialize", json!({ "capabilities": {} })).unwrap();
        s.notify("initialized", json!({}));
        s
    }

    fn send(&mut self, v: &Value) {
        let body = v.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        self.stdin.flush().unwrap();
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(&json!({ "jsonrpc": "2.0", "method": method, "params": params }));
    }

    /// The result of a request, or its error object.
    fn call(&mut self, method: &str, params: Value) -> Result<Value, Value> {
        self.next += 1;
        let id = self.next;
        self.send(&json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
        loop {
            let v = self
                .rx
                .recv_timeout(Duration::from_secs(60))
                .unwrap_or_else(|_| panic!("no answer to {method}"));
            if v["id"] == id && v.get("method").is_none() {
                return match v.get("error") {
                    Some(e) => Err(e.clone()),
                    None => Ok(v["result"].clone()),
                };
            }
        }
    }

    fn step(&mut self, route: &str, action: &str) -> Value {
        self.call(
            "miau/step",
            json!({ "uri": URI, "level": "door-stop", "route": route, "action": action }),
        )
        .unwrap()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn level_and_step_play_the_rust_engine() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/play/crate-works-drafts.miau"
    ))
    .unwrap();
    let mut s = Server::start();
    s.notify(
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": URI, "languageId": "miau", "version": 1, "text": text } }),
    );

    let reset = s
        .call("miau/level", json!({ "uri": URI, "level": "door-stop" }))
        .unwrap();
    assert_eq!(reset["turn"], 0);
    assert_eq!(reset["route"], "");
    assert_eq!(reset["title"], "Door stop");
    assert_eq!(reset["won"], false);
    assert_eq!(reset["solution"], "LURRURDDURRRRRR");
    assert!(
        reset["levels"]
            .as_array()
            .unwrap()
            .contains(&json!("door-stop"))
    );
    assert!(
        reset["rules"]
            .as_array()
            .unwrap()
            .contains(&json!("MIAU IS YOU"))
    );
    assert!(reset["svg"].as_str().unwrap().starts_with("<svg"));

    let mut exchanges = vec![json!({ "route": null, "action": null, "view": reset.clone() })];
    let mut route = String::new();
    for action in ["L", "U", "L", "undo", "restart"] {
        let v = s.step(&route, action);
        exchanges.push(json!({ "route": route, "action": action, "view": v.clone() }));
        route = v["route"].as_str().unwrap().to_string();
    }
    let views: Vec<&Value> = exchanges[1..].iter().map(|e| &e["view"]).collect();
    assert_eq!(
        views
            .iter()
            .map(|v| v["route"].as_str().unwrap())
            .collect::<Vec<_>>(),
        ["L", "LU", "LU", "L", ""]
    );
    assert_eq!(views[0]["turn"], 1);
    assert_eq!(
        views[2]["message"], "MIAU at column 1, row 5 was blocked by WALL",
        "the wall refuses"
    );
    assert_eq!(
        views[2]["turn"], views[1]["turn"],
        "a refused move changes nothing"
    );
    assert_eq!(views[3]["message"], "undone");
    assert_eq!(
        (views[4]["turn"].as_u64(), views[4]["message"].as_str()),
        (Some(0), Some("restarted"))
    );

    // The whole solution wins.
    let won = s
        .call(
            "miau/level",
            json!({ "uri": URI, "level": "door-stop", "moves": "LURRURDDURRRRRR" }),
        )
        .unwrap();
    assert_eq!(won["won"], true);
    assert!(won["events"].as_array().unwrap().contains(&json!("won!")));

    // An edit redraws with the same route; a route that no longer applies is cut.
    let edited = text.replace("title      \"Door stop\"", "title      \"Door stopper\"");
    assert_ne!(edited, text);
    s.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": URI, "version": 2 }, "contentChanges": [{ "text": edited }] }),
    );
    let v = s
        .call(
            "miau/level",
            json!({ "uri": URI, "level": "door-stop", "moves": "LU" }),
        )
        .unwrap();
    assert_eq!(
        (v["title"].as_str(), v["route"].as_str()),
        (Some("Door stopper"), Some("LU"))
    );
    let cut = s
        .call(
            "miau/level",
            json!({ "uri": URI, "level": "door-stop", "moves": "LUL" }),
        )
        .unwrap();
    assert_eq!(cut["route"], "LU");
    assert!(
        cut["message"].as_str().unwrap().contains("input 3"),
        "{}",
        cut["message"]
    );

    // Bad parameters are errors, not crashes.
    for bad in [
        json!({ "uri": URI, "level": "no-such-level" }),
        json!({ "uri": URI }),
        json!({ "level": "door-stop" }),
        json!({ "uri": "file:///not/open.miau", "level": "door-stop" }),
        json!({ "uri": URI, "level": "door-stop", "moves": 42 }),
    ] {
        assert!(s.call("miau/level", bad.clone()).is_err(), "{bad}");
    }
    let bad_action = s.call(
        "miau/step",
        json!({ "uri": URI, "level": "door-stop", "route": "", "action": "jump" }),
    );
    assert!(bad_action.is_err());
    // Still serving.
    assert_eq!(s.step("", "L")["turn"], 1);

    // The webview's browser test answers keys with these exchanges.
    let fixture = serde_json::to_string_pretty(
        &json!({ "uri": URI, "level": "door-stop", "exchanges": exchanges }),
    )
    .unwrap()
        + "\n";
    if std::env::var_os("MIAU_RECORD").is_some() {
        std::fs::write(FIXTURE, &fixture).unwrap();
    }
    let committed = std::fs::read_to_string(FIXTURE).unwrap_or_default();
    assert!(
        committed == fixture,
        "{FIXTURE} is not what the server answers today: rerun with MIAU_RECORD=1 and commit it"
    );
}

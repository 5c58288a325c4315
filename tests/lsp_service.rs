//! The language server in process: JSON-RPC requests through the
//! `LspService`, asserting on the responses and on what it publishes.

use futures::StreamExt;
use serde_json::{Value, json};
use std::time::Duration;
use tokio::sync::mpsc;
use tower::{Service, ServiceExt};
use tower_lsp_server::LspService;
use tower_lsp_server::jsonrpc::Request;

const TRAP: &str = include_str!("fixtures/lsp/noun_trap.miau");
const URI: &str = "file:///work/doors.miau";

struct Client {
    service: LspService<miau::lsp::MiauServer>,
    from_server: mpsc::UnboundedReceiver<Request>,
    next_id: i64,
}

impl Client {
    async fn start(capabilities: Value) -> Client {
        let (service, socket) = miau::lsp::service();
        let (tx, rx) = mpsc::unbounded_channel();
        tokio::spawn(async move {
            let mut socket = socket;
            while let Some(req) = socket.next().await {
                if tx.send(req).is_err() {
                    break;
                }
            }
        });
        let mut c = Client {
            service,
            from_server: rx,
            next_id: 0,
        };
        let init = c
            .request(
                "initialize",
                json!({ "capabilities": capabilities, "workspaceFolders": [{ "uri": "file:///nonexistent-miau-workspace", "name": "none" }] }),
            )
            .await;
        assert!(init["capabilities"]["hoverProvider"].as_bool().unwrap());
        c.notify("initialized", json!({})).await;
        c
    }

    async fn call(&mut self, req: Request) -> Option<Result<Value, Value>> {
        let resp = self
            .service
            .ready()
            .await
            .unwrap()
            .call(req)
            .await
            .unwrap()?;
        let (_, body) = resp.into_parts();
        Some(body.map_err(|e| serde_json::to_value(e).unwrap()))
    }

    async fn try_request(&mut self, method: &'static str, params: Value) -> Result<Value, Value> {
        self.next_id += 1;
        let req = Request::build(method)
            .params(params)
            .id(self.next_id)
            .finish();
        self.call(req).await.expect("a response")
    }

    async fn request(&mut self, method: &'static str, params: Value) -> Value {
        self.try_request(method, params)
            .await
            .unwrap_or_else(|e| panic!("{method} failed: {e}"))
    }

    async fn notify(&mut self, method: &'static str, params: Value) {
        let req = Request::build(method).params(params).finish();
        assert!(self.call(req).await.is_none());
    }

    async fn open(&mut self, uri: &str, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({ "textDocument": { "uri": uri, "languageId": "miau", "version": 1, "text": text } }),
        )
        .await;
    }

    async fn change(&mut self, uri: &str, version: i32, text: &str) {
        self.notify(
            "textDocument/didChange",
            json!({ "textDocument": { "uri": uri, "version": version }, "contentChanges": [{ "text": text }] }),
        )
        .await;
    }

    /// The next message of `method` from the server (skipping others), within 10 s.
    async fn next(&mut self, method: &str) -> Value {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
        loop {
            let msg = tokio::time::timeout_at(deadline, self.from_server.recv())
                .await
                .unwrap_or_else(|_| panic!("no {method} within 10 s"))
                .expect("server open");
            if msg.method() == method {
                let (_, _, params) = msg.into_parts();
                return params.unwrap_or(Value::Null);
            }
        }
    }

    /// Diagnostics published for `uri` at `version`.
    async fn diagnostics(&mut self, uri: &str, version: i32) -> Vec<Value> {
        loop {
            let p = self.next("textDocument/publishDiagnostics").await;
            if p["uri"] == uri && p["version"] == version {
                return p["diagnostics"].as_array().cloned().unwrap_or_default();
            }
        }
    }
}

fn pos(text: &str, needle: &str) -> Value {
    let off = text
        .find(needle)
        .unwrap_or_else(|| panic!("{needle} not found"));
    let line = text[..off].matches('\n').count();
    let ls = text[..off].rfind('\n').map_or(0, |i| i + 1);
    let col: usize = text[ls..off].chars().map(char::len_utf16).sum();
    json!({ "line": line, "character": col })
}

fn doc_pos(text: &str, needle: &str) -> Value {
    json!({ "textDocument": { "uri": URI }, "position": pos(text, needle) })
}

#[tokio::test]
async fn diagnostics_are_published_after_open_and_every_change() {
    let mut c = Client::start(json!({})).await;
    c.open(URI, TRAP).await;
    let d = c.diagnostics(URI, 1).await;
    let m301 = d.iter().find(|d| d["code"] == "M301").expect("M301");
    assert_eq!(m301["range"]["start"], pos(TRAP, "SHUT ."));
    assert_eq!(m301["severity"], 2);
    assert_eq!(m301["source"], "miau");
    // A burst of edits: the latest wins.
    let fixed = TRAP.replace("SHUT .", "STOP .");
    for v in 2..6 {
        c.change(URI, v, if v % 2 == 0 { TRAP } else { &fixed })
            .await;
    }
    c.change(URI, 6, &fixed).await;
    let d = c.diagnostics(URI, 6).await;
    assert!(d.iter().all(|d| d["code"] != "M301"), "{d:?}");
    c.notify(
        "textDocument/didClose",
        json!({ "textDocument": { "uri": URI } }),
    )
    .await;
    let p = c.next("textDocument/publishDiagnostics").await;
    assert_eq!(p["diagnostics"], json!([]));
}

#[tokio::test]
async fn hover_definition_references_rename() {
    let mut c = Client::start(json!({})).await;
    c.open(URI, TRAP).await;
    let h = c
        .request("textDocument/hover", doc_pos(TRAP, "DOOR IS   SHUT"))
        .await;
    let md = h["contents"]["value"].as_str().unwrap();
    assert!(md.contains("`DOOR IS SHUT`"), "{md}");
    assert_eq!(h["range"]["start"], pos(TRAP, "DOOR IS   SHUT"));

    let d = c
        .request("textDocument/definition", doc_pos(TRAP, "=    f"))
        .await;
    assert_eq!(d[0]["range"]["start"], pos(TRAP, "= DOOR"));
    assert_eq!(d[0]["uri"], URI);

    let mut p = doc_pos(TRAP, "FLAG \"");
    p["context"] = json!({ "includeDeclaration": true });
    let r = c.request("textDocument/references", p).await;
    assert_eq!(r.as_array().unwrap().len(), 3, "{r}");

    let pr = c
        .request("textDocument/prepareRename", doc_pos(TRAP, "= DOOR"))
        .await;
    assert_eq!(pr["start"], pos(TRAP, "= DOOR"));
    let mut p = doc_pos(TRAP, "= DOOR");
    p["newName"] = json!("d");
    let e = c.request("textDocument/rename", p).await;
    assert_eq!(e["changes"][URI].as_array().unwrap().len(), 2);
    let mut p = doc_pos(TRAP, "= DOOR");
    p["newName"] = json!("Bad");
    assert!(c.try_request("textDocument/rename", p).await.is_err());
}

#[tokio::test]
async fn completion_symbols_folding_tokens_hints_lenses() {
    let mut c = Client::start(json!({})).await;
    c.open(URI, TRAP).await;
    let items = c
        .request("textDocument/completion", doc_pos(TRAP, "@    ."))
        .await;
    let labels: Vec<&str> = items
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["label"].as_str().unwrap())
        .collect();
    assert!(
        labels.contains(&"=") && labels.contains(&"IS") && labels.contains(&"DOOR"),
        "{labels:?}"
    );

    let doc = json!({ "textDocument": { "uri": URI } });
    let syms = c.request("textDocument/documentSymbol", doc.clone()).await;
    let names: Vec<&str> = syms
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "pack doors",
            "palette",
            "glossary",
            "legend",
            "level door-trap"
        ]
    );

    let folds = c.request("textDocument/foldingRange", doc.clone()).await;
    assert!(folds.as_array().unwrap().len() >= 6);

    let toks = c
        .request("textDocument/semanticTokens/full", doc.clone())
        .await;
    let data = toks["data"].as_array().unwrap();
    assert!(!data.is_empty() && data.len() % 5 == 0);
    // Decode the relative positions: the board's first IS is a keyword token (type 1).
    let (mut line, mut col) = (0u64, 0u64);
    let mut decoded = Vec::new();
    for t in data.chunks(5) {
        let (dl, ds) = (t[0].as_u64().unwrap(), t[1].as_u64().unwrap());
        col = if dl == 0 { col + ds } else { ds };
        line += dl;
        decoded.push((line, col, t[2].as_u64().unwrap(), t[3].as_u64().unwrap()));
    }
    let is = pos(TRAP, "IS   YOU");
    let want = (
        is["line"].as_u64().unwrap(),
        is["character"].as_u64().unwrap(),
        2,
        1,
    );
    assert!(decoded.contains(&want), "{decoded:?}");

    let range =
        json!({ "start": { "line": 0, "character": 0 }, "end": { "line": 100, "character": 0 } });
    let hints = c
        .request(
            "textDocument/inlayHint",
            json!({ "textDocument": { "uri": URI }, "range": range }),
        )
        .await;
    assert!(hints[0]["label"].as_str().unwrap().contains("DOOR IS SHUT"));
    assert_eq!(hints[0]["position"], pos(TRAP, "\n    MIAU IS"));

    let lenses = c.request("textDocument/codeLens", doc.clone()).await;
    let titles: Vec<&str> = lenses
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["command"]["title"].as_str().unwrap())
        .collect();
    assert_eq!(titles, ["Check", "Replay solution"]);
    assert_eq!(lenses[0]["command"]["arguments"], json!([URI, "door-trap"]));
}

#[tokio::test]
async fn formatting_and_code_actions() {
    let mut c = Client::start(json!({})).await;
    let messy = TRAP
        .replace("  title    \"Door trap\"", "title \"Door trap\"")
        .replace("WIN\n", "WIM\n");
    c.open(URI, &messy).await;
    let edits = c
        .request("textDocument/formatting", json!({ "textDocument": { "uri": URI }, "options": { "tabSize": 2, "insertSpaces": true } }))
        .await;
    assert_eq!(edits.as_array().unwrap().len(), 1);
    let p = pos(&messy, "WIM");
    let acts = c
        .request(
            "textDocument/codeAction",
            json!({ "textDocument": { "uri": URI }, "range": { "start": p, "end": p }, "context": { "diagnostics": [] } }),
        )
        .await;
    let titles: Vec<&str> = acts
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["title"].as_str().unwrap())
        .collect();
    assert!(titles.contains(&"Replace with WIN"), "{titles:?}");
    // WIM is a slip for WIN, not a new word to pair with SHUT.
    assert!(
        !titles.iter().any(|t| t.contains("as a pair")),
        "{titles:?}"
    );
    let fix = acts
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["title"] == "Replace with WIN")
        .unwrap();
    assert_eq!(fix["edit"]["changes"][URI][0]["newText"], "WIN");
}

#[tokio::test]
async fn check_commands_report_progress_and_diagnostics() {
    let mut c = Client::start(json!({})).await;
    let bad = TRAP.replace("\"RRR\"", "\"RRL\"");
    c.open(URI, &bad).await;
    let _ = c.diagnostics(URI, 1).await;
    let out = c
        .request(
            "workspace/executeCommand",
            json!({ "command": "miau.checkLevel", "arguments": [URI, "door-trap"], "workDoneToken": "t1" }),
        )
        .await;
    assert_eq!(out["levels"][0]["passed"], false, "{out}");
    let codes = out["levels"][0]["codes"].as_array().unwrap();
    assert!(codes.contains(&json!("M410")), "{out}");
    let p = c.next("$/progress").await;
    assert_eq!(p["token"], "t1");
    assert_eq!(p["value"]["kind"], "begin");
    let d = c.diagnostics(URI, 1).await;
    let m410 = d
        .iter()
        .find(|d| d["code"] == "M410")
        .expect("M410 published");
    assert_eq!(m410["range"]["start"], pos(&bad, "\"RRL\""));
    // The level header's hover shows the last check.
    let h = c
        .request("textDocument/hover", doc_pos(&bad, "door-trap"))
        .await;
    assert!(
        h["contents"]["value"]
            .as_str()
            .unwrap()
            .contains("Last check: failed"),
        "{h}"
    );
    // An edit elsewhere keeps the level's result; an edit to the level withdraws it.
    let moved = format!("// a new first line\n{bad}");
    c.change(URI, 2, &moved).await;
    let d = c.diagnostics(URI, 2).await;
    let m410 = d
        .iter()
        .find(|d| d["code"] == "M410")
        .expect("still current");
    assert_eq!(m410["range"]["start"], pos(&moved, "\"RRL\""));
    let fixed = moved.replace("\"RRL\"", "\"RRR\"");
    c.change(URI, 3, &fixed).await;
    let d = c.diagnostics(URI, 3).await;
    assert!(
        d.iter().all(|d| d["code"] != "M410"),
        "stale result withdrawn"
    );
    // The pack check and the replay.
    let out = c
        .request(
            "workspace/executeCommand",
            json!({ "command": "miau.checkPack", "arguments": [URI] }),
        )
        .await;
    // The route replays now; the solver still finds the level bypassable and trivial (3 steps).
    let codes = out["levels"][0]["codes"].as_array().unwrap();
    assert!(!codes.contains(&json!("M410")), "{out}");
    assert!(codes.contains(&json!("M405")), "{out}");
    let out = c
        .request(
            "workspace/executeCommand",
            json!({ "command": "miau.replaySolution", "arguments": [URI, "door-trap"] }),
        )
        .await;
    assert!(out.as_str().unwrap().contains("result: won in 3 turns"));
    // Save runs the pack check in the background.
    c.notify(
        "textDocument/didSave",
        json!({ "textDocument": { "uri": URI } }),
    )
    .await;
    let _ = c.diagnostics(URI, 3).await;
    assert!(
        c.try_request(
            "workspace/executeCommand",
            json!({ "command": "miau.nope", "arguments": [] })
        )
        .await
        .is_err()
    );
    // Cancelling a token that isn't running is harmless.
    c.notify("window/workDoneProgress/cancel", json!({ "token": "t1" }))
        .await;
}

#[tokio::test]
async fn positions_are_utf16_by_default_and_utf8_when_offered() {
    let text = TRAP.replace("DOOR \"🚪\"", "DOOR \"🚪\" faces up");
    for (caps, utf8) in [
        (json!({}), false),
        (
            json!({ "general": { "positionEncodings": ["utf-8", "utf-16"] } }),
            true,
        ),
    ] {
        let mut c = Client::start(caps).await;
        c.open(URI, &text).await;
        let d = c.diagnostics(URI, 1).await;
        let bad = d.iter().find(|d| d["code"] == "M232").expect("M232");
        // The entry's span ends after `up`, past the emoji.
        let off = text.find("up\n").unwrap() + 2;
        let ls = text[..off].rfind('\n').unwrap() + 1;
        let col = if utf8 {
            off - ls
        } else {
            text[ls..off].chars().map(char::len_utf16).sum()
        };
        assert_eq!(bad["range"]["end"]["character"], col, "utf8={utf8}: {bad}");
        // Hover on the noun after the emoji-bearing line, and on a position past the line's end.
        let h = c
            .request("textDocument/hover", doc_pos(&text, "FLAG \""))
            .await;
        assert!(h["contents"]["value"].as_str().unwrap().contains("FLAG"));
        let far = json!({ "textDocument": { "uri": URI }, "position": { "line": 99999, "character": 99999 } });
        let _ = c.request("textDocument/hover", far).await;
    }
}

#[tokio::test]
async fn several_documents_stay_apart() {
    let mut c = Client::start(json!({})).await;
    let other = "file:///work/other.miau";
    c.open(URI, TRAP).await;
    c.open(other, &TRAP.replace("SHUT .", "STOP .")).await;
    let mut seen = 0;
    while seen < 2 {
        let p = c.next("textDocument/publishDiagnostics").await;
        let has = p["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["code"] == "M301");
        if p["uri"] == URI {
            assert!(has);
            seen += 1;
        } else if p["uri"] == other {
            assert!(!has);
            seen += 1;
        }
    }
    c.notify(
        "workspace/didChangeWorkspaceFolders",
        json!({ "event": { "added": [{ "uri": "file:///w2", "name": "w2" }], "removed": [] } }),
    )
    .await;
    assert_eq!(c.request("shutdown", Value::Null).await, Value::Null);
}

#[tokio::test]
async fn workspace_folders_are_scanned_for_packs() {
    let dir = std::env::temp_dir().join(format!("miau-ws-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::write(dir.join("sub/doors.miau"), TRAP).unwrap();
    std::fs::create_dir_all(dir.join("docs")).unwrap();
    std::fs::write(dir.join("docs/diagnostics.md"), "# Diagnostics\n").unwrap();
    let (service, socket) = miau::lsp::service();
    let (tx, rx) = mpsc::unbounded_channel();
    tokio::spawn(async move {
        let mut socket = socket;
        while let Some(req) = socket.next().await {
            let _ = tx.send(req);
        }
    });
    let mut c = Client {
        service,
        from_server: rx,
        next_id: 0,
    };
    let folder = format!("file://{}", dir.display());
    c.request(
        "initialize",
        json!({ "capabilities": {}, "workspaceFolders": [{ "uri": folder, "name": "ws" }] }),
    )
    .await;
    c.notify("initialized", json!({})).await;
    let p = c.next("textDocument/publishDiagnostics").await;
    assert!(
        p["uri"].as_str().unwrap().ends_with("sub/doors.miau"),
        "{p}"
    );
    assert!(
        p["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["code"] == "M301")
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn a_running_check_can_be_cancelled() {
    let mut c = Client::start(json!({})).await;
    // Many levels, so the check is still running when the cancel arrives.
    let level_start = TRAP.find("level door-trap").unwrap();
    let mut text = TRAP.to_string();
    for i in 0..60 {
        text.push_str(&TRAP[level_start..].replace("door-trap", &format!("door-trap-{i}")));
    }
    c.open(URI, &text).await;
    let _ = c.diagnostics(URI, 1).await;
    c.next_id += 1;
    let req = Request::build("workspace/executeCommand")
        .params(json!({ "command": "miau.checkPack", "arguments": [URI], "workDoneToken": "big" }))
        .id(c.next_id)
        .finish();
    let fut = c.service.ready().await.unwrap().call(req);
    let running = tokio::spawn(fut);
    loop {
        let p = c.next("$/progress").await;
        if p["token"] == "big" {
            break;
        }
    }
    c.notify("window/workDoneProgress/cancel", json!({ "token": "big" }))
        .await;
    let resp = running.await.unwrap().unwrap().unwrap();
    let (_, body) = resp.into_parts();
    let out = body.unwrap();
    assert_eq!(out["cancelled"], true, "{out}");
    assert!(out["levels"].as_array().unwrap().len() < 61);
}

/// The editor orders a level's diagnostics as `miauc check` prints them:
/// the misspelt property (M301) before the check's findings it explains,
/// each finding pointing at it, and no "Record solution" for the route
/// that wins only because of the misspelling.
#[tokio::test]
async fn check_findings_follow_and_name_their_cause() {
    let mut c = Client::start(json!({})).await;
    let text = include_str!("fixtures/check/causes.miau");
    c.open(URI, text).await;
    let _ = c.diagnostics(URI, 1).await;
    let out = c
        .request(
            "workspace/executeCommand",
            json!({ "command": "miau.checkLevel", "arguments": [URI, "misspelt"] }),
        )
        .await;
    assert!(
        out["levels"][0]["codes"]
            .as_array()
            .unwrap()
            .contains(&json!("M403")),
        "{out}"
    );
    let d = c.diagnostics(URI, 1).await;
    let codes: Vec<&str> = d.iter().filter_map(|d| d["code"].as_str()).collect();
    let m301 = codes.iter().position(|&c| c == "M301").expect("M301");
    let m403 = codes.iter().position(|&c| c == "M403").expect("M403");
    assert!(m301 < m403, "{codes:?}");
    let related = &d[m403]["relatedInformation"][0];
    assert_eq!(related["location"]["range"]["start"], pos(text, "STPO!"));
    assert!(
        related["message"]
            .as_str()
            .unwrap()
            .starts_with("because STPO isn't a property (M301)"),
        "{related}"
    );
    let actions = c
        .request(
            "textDocument/codeAction",
            json!({ "textDocument": { "uri": URI },
                    "range": { "start": pos(text, "solution"), "end": pos(text, "solution") },
                    "context": { "diagnostics": [] } }),
        )
        .await;
    let titles: Vec<&str> = actions
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|a| a["title"].as_str())
        .collect();
    assert!(
        titles.iter().all(|t| !t.starts_with("Record solution")),
        "{titles:?}"
    );
}

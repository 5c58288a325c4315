//! `miauc lsp`: the language server shell. The only module that knows LSP types.
//!
//! It keeps the open documents, runs the core's analysis ([`crate::ide`]) after
//! every change (debounced, latest edit wins, at most one analysis per document
//! at a time) and converts the core's plain data (byte spans, diagnostics, IDE
//! answers) to protocol types at the edge. Checks (stage 4) run in background
//! tasks with `$/progress` and cancellation; their diagnostics are kept per
//! level and withdrawn as soon as that level's text changes.

mod convert;

use crate::diag::Diagnostic;
use crate::ide::{self, Analysis};
use convert::{Encoding, lsp_diagnostic, lsp_position, lsp_range, offset_of};
use serde_json::{Value, json};
use std::collections::hash_map::DefaultHasher;
use std::collections::{BTreeMap, HashMap};
use std::hash::{Hash, Hasher};
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use tower_lsp_server::jsonrpc::{Error, Result};
use tower_lsp_server::ls_types::*;
use tower_lsp_server::{Client, LanguageServer, LspService, Server};

/// How long the server waits after an edit before analysing, so that a burst
/// of keystrokes is analysed once. Short, because the target is 50 ms from an
/// edit to published diagnostics.
const DEBOUNCE: Duration = Duration::from_millis(3);

/// Documents larger than this are not analysed (a hostile or mistaken client
/// can't make the server spend seconds per keystroke); they get one diagnostic.
/// The largest pack the loader accepts (64 levels of 128×128 cells) fits.
pub const MAX_DOCUMENT_BYTES: usize = 4 * 1024 * 1024;

/// The commands the server executes.
pub const COMMANDS: &[&str] = &[
    "miau.checkLevel",
    "miau.checkPack",
    "miau.replaySolution",
    "miau.cancelCheck",
    "miau.select",
];

/// Semantic token types, indexed by [`token_type`].
const TOKEN_TYPES: &[SemanticTokenType] = &[
    SemanticTokenType::CLASS,       // noun
    SemanticTokenType::KEYWORD,     // IS
    SemanticTokenType::OPERATOR,    // AND
    SemanticTokenType::ENUM_MEMBER, // core property
    SemanticTokenType::PROPERTY,    // custom property
    SemanticTokenType::VARIABLE,    // thing (legend key)
    SemanticTokenType::NAMESPACE,   // level id
];

/// Semantic token modifiers: bit 0 fixed word, bit 1 declaration.
const TOKEN_MODIFIERS: &[SemanticTokenModifier] = &[
    SemanticTokenModifier::READONLY,
    SemanticTokenModifier::DECLARATION,
];

fn token_type(k: ide::TokenKind) -> u32 {
    match k {
        ide::TokenKind::Noun => 0,
        ide::TokenKind::Is => 1,
        ide::TokenKind::And => 2,
        ide::TokenKind::Property => 3,
        ide::TokenKind::CustomProperty => 4,
        ide::TokenKind::Thing => 5,
        ide::TokenKind::Level => 6,
    }
}

/// Stage 4 diagnostics of one level, with spans relative to the level's start,
/// valid while the level's text hashes to `key`.
struct Stage4 {
    key: u64,
    diagnostics: Vec<Diagnostic>,
    /// The solver's route, for "Record solution".
    route: Option<String>,
}

/// One open document.
struct Document {
    uri: Uri,
    /// The client's version of the latest text.
    version: i32,
    /// Our own edit counter: increases with every change, whatever the client sends.
    seq: u64,
    text: Arc<str>,
    /// The analysis of `analysed_seq`.
    analysis: Option<Arc<Analysis>>,
    analysed_seq: u64,
    /// The edit whose diagnostics were last published.
    published_seq: u64,
    /// An analysis of this document is in flight.
    running: bool,
    /// Woken whenever an analysis of this document finishes.
    analysed: Arc<tokio::sync::Notify>,
    cache: Arc<ide::Cache>,
    stage4: BTreeMap<String, Stage4>,
    /// The last check summary of each level, for level hovers.
    checks: BTreeMap<String, String>,
}

#[derive(Default)]
struct State {
    docs: BTreeMap<String, Document>,
    folders: Vec<WorkspaceFolder>,
    /// Cancellation flags of running checks, by progress token.
    cancels: HashMap<String, Arc<AtomicBool>>,
    /// The cancellation flag of each document's pending or running check on
    /// save: a newer save cancels it, so a burst of saves runs one check.
    save_checks: HashMap<String, Arc<AtomicBool>>,
}

/// The server state shared by all requests and background tasks.
pub struct Backend {
    client: Client,
    state: Mutex<State>,
    seq: AtomicU64,
    utf8: AtomicBool,
    client_progress: AtomicBool,
    /// The client selects a range on `window/showDocument` (the "Allow"
    /// fix puts the cursor on its reason placeholder that way).
    show_document: AtomicBool,
    /// Where `docs/diagnostics.md` is, for links from diagnostics.
    docs: Mutex<Option<String>>,
}

/// Sets the flag when dropped, so that a check whose request was cancelled stops.
struct CancelOnDrop(Arc<AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

/// Runs a request's work on tokio's blocking pool, never on the task that
/// reads and answers messages: a semantic-tokens request on a 100,000-cell
/// row must not hold up a hover on another document.
///
/// The work gets a cancellation flag and returns `None` when it saw it set.
/// On `$/cancelRequest`, tower-lsp-server answers RequestCancelled (-32800)
/// and drops this future; the drop sets the flag, so the work stops at its
/// next poll instead of finishing for nobody.
async fn off_thread<T, F>(work: F) -> Result<T>
where
    T: Send + 'static,
    F: FnOnce(&AtomicBool) -> Option<T> + Send + 'static,
{
    let flag = Arc::new(AtomicBool::new(false));
    let _cancel_on_drop = CancelOnDrop(Arc::clone(&flag));
    match tokio::task::spawn_blocking(move || work(&flag)).await {
        Ok(Some(v)) => Ok(v),
        Ok(None) => Err(Error::request_cancelled()),
        Err(_) => Err(Error::internal_error()),
    }
}

/// Whether the work of a request should stop: polled by the conversion loops
/// every [`ide::CANCEL_POLL`] items.
fn stop(n: usize, cancel: &AtomicBool) -> bool {
    n.is_multiple_of(ide::CANCEL_POLL) && cancel.load(Ordering::Relaxed)
}

fn level_key(a: &Analysis, i: usize) -> Option<(u64, usize)> {
    let l = a.ast_levels().get(i).copied()?;
    let whole = l.block.whole();
    let mut h = DefaultHasher::new();
    a.slice(whole).hash(&mut h);
    Some((h.finish(), whole.start as usize))
}

fn shift(d: &Diagnostic, by: i64) -> Diagnostic {
    let mv = |s: crate::span::Span| {
        let f = |x: u32| (i64::from(x) + by).max(0) as usize;
        crate::span::Span::new(f(s.start), f(s.end))
    };
    let mut d = d.clone();
    d.span = mv(d.span);
    for r in &mut d.related {
        r.span = mv(r.span);
    }
    for f in &mut d.fixes {
        for e in &mut f.edits {
            e.span = mv(e.span);
        }
    }
    d
}

/// Where `within` (a byte range of edit `e`'s new text) lands once all of
/// `edits` are applied: the selection the "Allow" fix asks the editor for.
fn placeholder_range(
    a: &Analysis,
    e: &crate::diag::TextEdit,
    edits: &[crate::diag::TextEdit],
    within: std::ops::Range<usize>,
    enc: Encoding,
) -> Range {
    let width = |s: &str| match enc {
        Encoding::Utf16 => s.encode_utf16().count() as u32,
        Encoding::Utf8 => s.len() as u32,
    };
    let at = lsp_position(a, e.span.start as usize, enc);
    // Lines added or removed by the edits before this one.
    let shift: i64 = edits
        .iter()
        .filter(|o| o.span.start < e.span.start)
        .map(|o| {
            o.new_text.matches('\n').count() as i64 - a.slice(o.span).matches('\n').count() as i64
        })
        .sum();
    let before = e.new_text.get(..within.start).unwrap_or("");
    let line = (i64::from(at.line) + shift).max(0) as u32 + before.matches('\n').count() as u32;
    let col = match before.rfind('\n') {
        Some(nl) => width(&before[nl + 1..]),
        None => at.character + width(before),
    };
    let len = width(e.new_text.get(within).unwrap_or(""));
    Range::new(Position::new(line, col), Position::new(line, col + len))
}

impl Backend {
    fn new(client: Client) -> Self {
        Backend {
            client,
            state: Mutex::new(State::default()),
            seq: AtomicU64::new(0),
            utf8: AtomicBool::new(false),
            client_progress: AtomicBool::new(false),
            show_document: AtomicBool::new(false),
            docs: Mutex::new(None),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic elsewhere must not wedge every later request.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn docs_url(&self) -> Option<String> {
        self.docs.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    fn enc(&self) -> Encoding {
        if self.utf8.load(Ordering::Relaxed) {
            Encoding::Utf8
        } else {
            Encoding::Utf16
        }
    }

    /// Store new text and schedule its analysis.
    fn update(self: &Arc<Self>, uri: Uri, version: i32, text: String) {
        let key = uri.as_str().to_string();
        let seq = self.seq.fetch_add(1, Ordering::SeqCst) + 1;
        {
            let mut st = self.lock();
            match st.docs.get_mut(&key) {
                Some(doc) => {
                    doc.version = version;
                    doc.seq = seq;
                    doc.text = Arc::from(text);
                }
                None => {
                    st.docs.insert(
                        key.clone(),
                        Document {
                            uri,
                            version,
                            seq,
                            text: Arc::from(text),
                            analysis: None,
                            analysed_seq: 0,
                            published_seq: 0,
                            running: false,
                            analysed: Arc::new(tokio::sync::Notify::new()),
                            cache: Arc::new(ide::Cache::new()),
                            stage4: BTreeMap::new(),
                            checks: BTreeMap::new(),
                        },
                    );
                }
            }
        }
        let this = Arc::clone(self);
        tokio::spawn(async move {
            tokio::time::sleep(DEBOUNCE).await;
            this.analyse_loop(key).await;
        });
    }

    /// Analyse the latest text of a document and publish, until no newer edit
    /// is waiting. Only one loop runs per document; later edits only wake it.
    async fn analyse_loop(self: Arc<Self>, key: String) {
        loop {
            let (seq, text, cache, ready) = {
                let mut st = self.lock();
                let Some(doc) = st.docs.get_mut(&key) else {
                    return;
                };
                if doc.running || doc.published_seq == doc.seq {
                    return;
                }
                // A request may already have analysed this text.
                let ready = doc
                    .analysis
                    .as_ref()
                    .filter(|_| doc.analysed_seq == doc.seq)
                    .cloned();
                doc.running = ready.is_none();
                (
                    doc.seq,
                    Arc::clone(&doc.text),
                    Arc::clone(&doc.cache),
                    ready,
                )
            };
            let result = match ready {
                Some(a) => Ok(a),
                None => {
                    tokio::task::spawn_blocking(move || {
                        Arc::new(Analysis::with_cache(&text, MAX_DOCUMENT_BYTES, &cache))
                    })
                    .await
                }
            };
            let current = {
                let mut st = self.lock();
                let Some(doc) = st.docs.get_mut(&key) else {
                    return;
                };
                doc.running = false;
                match result {
                    Ok(a) => {
                        if doc.analysed_seq < seq {
                            doc.analysis = Some(a);
                            doc.analysed_seq = seq;
                        }
                    }
                    // The analysis panicked: keep serving, and don't retry this text.
                    Err(_) => doc.published_seq = seq,
                }
                doc.analysed.notify_waiters();
                doc.seq == seq && doc.published_seq < seq
            };
            if current {
                self.publish(&key).await;
                if let Some(doc) = self.lock().docs.get_mut(&key) {
                    doc.published_seq = doc.published_seq.max(seq);
                }
                return;
            }
            tokio::time::sleep(DEBOUNCE).await;
        }
    }

    /// Publish stages 1–3 plus the still-current stage 4 diagnostics of a document.
    async fn publish(&self, key: &str) {
        let enc = self.enc();
        let docs = self.docs_url();
        let (uri, version, diagnostics) = {
            let st = self.lock();
            let Some(doc) = st.docs.get(key) else { return };
            let Some(a) = doc.analysis.clone() else {
                return;
            };
            // Stages 1–3 and the still-current stage 4 findings, ordered and
            // tied to their causes as `miauc check` prints them.
            let mut all: Vec<Diagnostic> = a.diagnostics().to_vec();
            for (id, s4) in &doc.stage4 {
                let Some(i) = a.level_index(id) else { continue };
                let Some((key, start)) = level_key(&a, i) else {
                    continue;
                };
                if key != s4.key {
                    continue;
                }
                all.extend(s4.diagnostics.iter().map(|d| shift(d, start as i64)));
            }
            if all.len() > a.diagnostics().len() {
                crate::diag::note_causes(&mut all, a.text());
                crate::diag::sort(&mut all);
            }
            let mut out: Vec<tower_lsp_server::ls_types::Diagnostic> = all
                .iter()
                .map(|d| lsp_diagnostic(&doc.uri, &a, d, enc, docs.as_deref()))
                .collect();
            if let Some(n) = a.too_large() {
                out.push(tower_lsp_server::ls_types::Diagnostic {
                    range: Range::default(),
                    severity: Some(DiagnosticSeverity::WARNING),
                    source: Some("miau".into()),
                    message: format!(
                        "This document is {n} bytes; the language server analyses documents up to {MAX_DOCUMENT_BYTES} bytes. Use `miauc build` on it."
                    ),
                    ..Default::default()
                });
            }
            (doc.uri.clone(), doc.version, out)
        };
        self.client
            .publish_diagnostics(uri, diagnostics, Some(version))
            .await;
    }

    /// The analysis of a document's latest text, computing it now if the
    /// debounced one hasn't run yet.
    async fn analysis(&self, uri: &Uri) -> Option<Arc<Analysis>> {
        let key = uri.as_str().to_string();
        // While the debounced analysis runs, wait for it (a few times at most)
        // rather than start another: a flood of requests on a large document
        // must not multiply the work.
        for _ in 0..3 {
            let notify = {
                let st = self.lock();
                let doc = st.docs.get(&key)?;
                if !doc.running {
                    break;
                }
                Arc::clone(&doc.analysed)
            };
            let notified = notify.notified();
            tokio::pin!(notified);
            notified.as_mut().enable();
            let still_running = {
                let st = self.lock();
                let doc = st.docs.get(&key)?;
                doc.running && doc.analysed_seq != doc.seq
            };
            if !still_running {
                break;
            }
            let _ = tokio::time::timeout(Duration::from_secs(2), notified).await;
        }
        let (seq, text, cache) = {
            let st = self.lock();
            let doc = st.docs.get(&key)?;
            if let Some(a) = &doc.analysis {
                if doc.analysed_seq == doc.seq {
                    return Some(Arc::clone(a));
                }
            }
            (doc.seq, Arc::clone(&doc.text), Arc::clone(&doc.cache))
        };
        let a = tokio::task::spawn_blocking(move || {
            Analysis::with_cache(&text, MAX_DOCUMENT_BYTES, &cache)
        })
        .await
        .ok()?;
        let a = Arc::new(a);
        let mut st = self.lock();
        if let Some(doc) = st.docs.get_mut(&key) {
            if doc.seq == seq && doc.analysed_seq < seq {
                doc.analysis = Some(Arc::clone(&a));
                doc.analysed_seq = seq;
            }
        }
        Some(a)
    }

    /// Check levels of a document (all when `only` is `None`) in the
    /// background, reporting progress on `token`; stops between levels when cancelled.
    async fn check(
        self: &Arc<Self>,
        uri: Uri,
        only: Option<String>,
        token: Option<ProgressToken>,
        cancel: Arc<AtomicBool>,
    ) -> Value {
        let Some(a) = self.analysis(&uri).await else {
            return json!({ "error": "the document isn't open" });
        };
        let ids: Vec<String> = match &only {
            Some(id) => vec![id.clone()],
            None => a.ast_levels().iter().map(|l| l.id.text.clone()).collect(),
        };
        let token_key = token.as_ref().map(|t| match t {
            NumberOrString::Number(n) => n.to_string(),
            NumberOrString::String(s) => s.clone(),
        });
        if let Some(k) = &token_key {
            self.lock().cancels.insert(k.clone(), Arc::clone(&cancel));
        }
        let title = match &only {
            Some(id) => format!("Checking level {id}"),
            None => "Checking the pack".to_string(),
        };
        let progress = match token {
            Some(t) => Some(
                self.client
                    .progress(t, title)
                    .with_percentage(0)
                    .with_cancel_button()
                    .begin()
                    .await,
            ),
            None => None,
        };
        let mut results = Vec::new();
        let mut cancelled = false;
        let total = ids.len().max(1);
        for (n, id) in ids.iter().enumerate() {
            if cancel.load(Ordering::SeqCst) {
                cancelled = true;
                break;
            }
            if let Some(p) = &progress {
                p.report_with_message(
                    format!("{id} ({}/{})", n + 1, ids.len()),
                    (n * 100 / total) as u32,
                    None,
                )
                .await;
            }
            let (a2, id2, c2) = (Arc::clone(&a), id.clone(), Arc::clone(&cancel));
            let Ok(Some(outcome)) =
                tokio::task::spawn_blocking(move || ide::check_level(&a2, &id2, &c2)).await
            else {
                results.push(json!({ "level": id, "error": "no such level" }));
                continue;
            };
            if cancel.load(Ordering::SeqCst) {
                cancelled = true;
                break;
            }
            self.store_outcome(&uri, &a, &outcome);
            results.push(json!({
                "level": outcome.level,
                "passed": outcome.passed,
                "summary": outcome.summary,
                "codes": outcome.diagnostics.iter().map(|d| d.code()).collect::<Vec<_>>(),
                "shortest": outcome.shortest.map(|(f, l)| crate::check::shortest_json(f, l)),
            }));
        }
        if let Some(p) = progress {
            p.finish_with_message(if cancelled { "cancelled" } else { "done" })
                .await;
        }
        if let Some(k) = &token_key {
            self.lock().cancels.remove(k);
        }
        self.publish(uri.as_str()).await;
        json!({ "levels": results, "cancelled": cancelled })
    }

    fn store_outcome(&self, uri: &Uri, a: &Analysis, o: &ide::CheckOutcome) {
        let Some(i) = a.level_index(&o.level) else {
            return;
        };
        let Some((key, start)) = level_key(a, i) else {
            return;
        };
        let mut st = self.lock();
        let Some(doc) = st.docs.get_mut(uri.as_str()) else {
            return;
        };
        doc.stage4.insert(
            o.level.clone(),
            Stage4 {
                key,
                diagnostics: o
                    .diagnostics
                    .iter()
                    .map(|d| shift(d, -(start as i64)))
                    .collect(),
                route: o.route.clone(),
            },
        );
        doc.checks.insert(
            o.level.clone(),
            format!(
                "{} — {}",
                if o.passed { "passed" } else { "failed" },
                o.summary
            ),
        );
    }

    /// A fresh progress token the client agreed to, when it supports server-initiated progress.
    async fn new_token(&self) -> Option<ProgressToken> {
        if !self.client_progress.load(Ordering::Relaxed) {
            return None;
        }
        let n = self.seq.fetch_add(1, Ordering::SeqCst);
        let token = NumberOrString::String(format!("miau-check-{n}"));
        // A client that never answers must not hold the check up: after
        // PROGRESS_CREATE_TIMEOUT the check runs without progress.
        match tokio::time::timeout(
            PROGRESS_CREATE_TIMEOUT,
            self.client.create_work_done_progress(token.clone()),
        )
        .await
        {
            Ok(Ok(())) => Some(token),
            _ => None,
        }
    }
}

/// How long a save waits for later saves of the same document before its
/// check starts.
const SAVE_SETTLE: Duration = Duration::from_millis(300);

/// How long a background check waits for the client to accept its
/// progress token before it runs without one.
const PROGRESS_CREATE_TIMEOUT: Duration = Duration::from_secs(2);

/// How long `miau.select` waits for the client to show the document.
const SHOW_DOCUMENT_TIMEOUT: Duration = Duration::from_secs(2);

/// At most this many `.miau` files of the workspace folders are analysed when the server starts.
const MAX_WORKSPACE_FILES: usize = 256;

impl Backend {
    /// Publish diagnostics for the `.miau` files of the workspace folders that
    /// aren't open, so problems show before their files are.
    async fn scan_folders(&self) {
        let folders: Vec<std::path::PathBuf> = self
            .lock()
            .folders
            .iter()
            .filter_map(|f| f.uri.to_file_path().map(|p| p.into_owned()))
            .collect();
        let docs = self.docs_url();
        // The command line's file-system rules: each real directory once (no
        // exponential fans of links), regular files only, sizes checked
        // before reading.
        let files = tokio::task::spawn_blocking(move || {
            crate::files::workspace_sources(&folders, &["miau"], MAX_WORKSPACE_FILES)
        })
        .await
        .unwrap_or_default();
        let enc = self.enc();
        for source in files {
            let path = source.path;
            let Some(uri) = Uri::from_file_path(&path) else {
                continue;
            };
            if self.lock().docs.contains_key(uri.as_str()) {
                continue;
            }
            let analysed = tokio::task::spawn_blocking(move || {
                let bytes = crate::files::read_at_most(&path, MAX_DOCUMENT_BYTES as u64).ok()?;
                let (text, _) = crate::compile::decode(&bytes);
                Some(Analysis::new(&text, MAX_DOCUMENT_BYTES))
            })
            .await;
            let Ok(Some(a)) = analysed else { continue };
            // An editor may have opened the file meanwhile; its own analysis wins.
            if self.lock().docs.contains_key(uri.as_str()) {
                continue;
            }
            let diags = a
                .diagnostics()
                .iter()
                .map(|d| lsp_diagnostic(&uri, &a, d, enc, docs.as_deref()))
                .collect();
            self.client.publish_diagnostics(uri, diags, None).await;
        }
    }
}

/// The protocol handlers over a shared [`Backend`].
pub struct MiauServer(Arc<Backend>);

impl MiauServer {
    /// `window/workDoneProgress/cancel`: stop the check running under that token.
    async fn cancel_progress(&self, params: WorkDoneProgressCancelParams) {
        let key = match params.token {
            NumberOrString::Number(n) => n.to_string(),
            NumberOrString::String(s) => s,
        };
        if let Some(flag) = self.0.lock().cancels.get(&key) {
            flag.store(true, Ordering::SeqCst);
        }
    }

    /// `miau/level` `{uri, level, moves?}`: the preview of a level after
    /// `moves` (default none), see [`ide::preview`].
    async fn preview_level(&self, params: Value) -> Result<Value> {
        self.preview_request(params, false).await
    }

    /// `miau/step` `{uri, level, route, action}`: the preview after `route`
    /// and one more action (`U D L R W`, `undo`, `restart`).
    async fn preview_step(&self, params: Value) -> Result<Value> {
        self.preview_request(params, true).await
    }

    async fn preview_request(&self, params: Value, step: bool) -> Result<Value> {
        let uri = params
            .get("uri")
            .and_then(Value::as_str)
            .and_then(|s| Uri::from_str(s).ok())
            .ok_or_else(|| Error::invalid_params("expected \"uri\": a document URI"))?;
        let level = params
            .get("level")
            .and_then(Value::as_str)
            .ok_or_else(|| Error::invalid_params("expected \"level\": a level id"))?
            .to_string();
        let route_key = if step { "route" } else { "moves" };
        let route = match params.get(route_key) {
            None | Some(Value::Null) => String::new(),
            Some(Value::String(s)) if s.len() <= ide::MAX_ROUTE => s.clone(),
            Some(_) => {
                return Err(Error::invalid_params(format!(
                    "\"{route_key}\" must be a string of U D L R W of at most {} inputs",
                    ide::MAX_ROUTE
                )));
            }
        };
        let action = if step {
            let a = params.get("action").and_then(Value::as_str).unwrap_or("");
            Some(ide::parse_action(a).ok_or_else(|| {
                Error::invalid_params("\"action\" must be one of U D L R W undo restart")
            })?)
        } else {
            None
        };
        let Some(a) = self.0.analysis(&uri).await else {
            return Err(Error::invalid_params(format!(
                "{} is not an open document",
                uri.as_str()
            )));
        };
        let id = level.clone();
        let p = tokio::task::spawn_blocking(move || {
            std::panic::catch_unwind(|| ide::preview(&a, &id, &route, action))
                .ok()
                .flatten()
        })
        .await
        .ok()
        .flatten()
        .ok_or_else(|| Error::invalid_params(format!("the document has no level {level}")))?;
        Ok(json!({
            "uri": uri.as_str(),
            "level": p.level,
            "title": p.title,
            "levels": p.levels,
            "svg": p.svg,
            "turn": p.turn,
            "won": p.won,
            "route": p.route,
            "events": p.events,
            "rules": p.rules,
            "message": p.message,
            "solution": p.solution,
        }))
    }

    fn uri_arg(args: &[Value]) -> Option<Uri> {
        let s = match args.first()? {
            Value::String(s) => s.clone(),
            Value::Object(m) => m.get("uri")?.as_str()?.to_string(),
            _ => return None,
        };
        Uri::from_str(&s).ok()
    }

    fn level_arg(args: &[Value]) -> Option<String> {
        match (args.first(), args.get(1)) {
            (_, Some(Value::String(s))) => Some(s.clone()),
            (Some(Value::Object(m)), _) => m.get("level")?.as_str().map(str::to_string),
            _ => None,
        }
    }
}

impl LanguageServer for MiauServer {
    async fn initialize(&self, params: InitializeParams) -> Result<InitializeResult> {
        let offers_utf8 = params
            .capabilities
            .general
            .as_ref()
            .and_then(|g| g.position_encodings.as_ref())
            .is_some_and(|e| e.contains(&PositionEncodingKind::UTF8));
        self.0.utf8.store(offers_utf8, Ordering::Relaxed);
        let progress = params
            .capabilities
            .window
            .as_ref()
            .and_then(|w| w.work_done_progress)
            .unwrap_or(false);
        self.0.client_progress.store(progress, Ordering::Relaxed);
        let show = params
            .capabilities
            .window
            .as_ref()
            .and_then(|w| w.show_document.as_ref())
            .is_some_and(|s| s.support);
        self.0.show_document.store(show, Ordering::Relaxed);
        // Diagnostics link to their page: the client's `diagnosticsDocs`
        // option, else `docs/diagnostics.md` in a workspace folder that has one.
        let option = params
            .initialization_options
            .as_ref()
            .and_then(|o| o.get("diagnosticsDocs"))
            .and_then(Value::as_str)
            .map(str::to_string);
        let found = params.workspace_folders.iter().flatten().find_map(|f| {
            let path = f.uri.to_file_path()?.join("docs").join("diagnostics.md");
            path.is_file()
                .then(|| Uri::from_file_path(&path))
                .flatten()
                .map(|u| u.as_str().to_string())
        });
        *self.0.docs.lock().unwrap_or_else(|e| e.into_inner()) = option.or(found);
        if let Some(f) = params.workspace_folders {
            self.0.lock().folders = f;
        }
        Ok(InitializeResult {
            capabilities: capabilities(offers_utf8),
            server_info: Some(ServerInfo {
                name: "miauc".into(),
                version: Some(env!("CARGO_PKG_VERSION").into()),
            }),
            offset_encoding: None,
        })
    }

    async fn initialized(&self, _: InitializedParams) {
        let this = Arc::clone(&self.0);
        tokio::spawn(async move { this.scan_folders().await });
    }

    async fn shutdown(&self) -> Result<()> {
        for flag in self.0.lock().cancels.values() {
            flag.store(true, Ordering::SeqCst);
        }
        Ok(())
    }

    async fn did_change_workspace_folders(&self, params: DidChangeWorkspaceFoldersParams) {
        let mut st = self.0.lock();
        st.folders
            .retain(|f| !params.event.removed.iter().any(|r| r.uri == f.uri));
        st.folders.extend(params.event.added);
    }

    async fn did_open(&self, params: DidOpenTextDocumentParams) {
        let doc = params.text_document;
        self.0.update(doc.uri, doc.version, doc.text);
    }

    async fn did_change(&self, params: DidChangeTextDocumentParams) {
        // Full sync: the last change carries the whole text.
        if let Some(change) = params.content_changes.into_iter().last() {
            let doc = params.text_document;
            self.0.update(doc.uri, doc.version, change.text);
        }
    }

    async fn did_save(&self, params: DidSaveTextDocumentParams) {
        let uri = params.text_document.uri;
        if !self.0.lock().docs.contains_key(uri.as_str()) {
            return;
        }
        let cancel = Arc::new(AtomicBool::new(false));
        let superseded = self
            .0
            .lock()
            .save_checks
            .insert(uri.as_str().to_string(), Arc::clone(&cancel));
        if let Some(previous) = superseded {
            previous.store(true, Ordering::SeqCst);
        }
        let this = Arc::clone(&self.0);
        tokio::spawn(async move {
            // Save-all and format-on-save send saves in bursts: only the
            // last of a burst checks, and a newer save stops an older check.
            tokio::time::sleep(SAVE_SETTLE).await;
            if !cancel.load(Ordering::SeqCst) {
                let token = this.new_token().await;
                let _ = this
                    .check(uri.clone(), None, token, Arc::clone(&cancel))
                    .await;
            }
            let mut st = this.lock();
            if st
                .save_checks
                .get(uri.as_str())
                .is_some_and(|c| Arc::ptr_eq(c, &cancel))
            {
                st.save_checks.remove(uri.as_str());
            }
        });
    }

    async fn did_close(&self, params: DidCloseTextDocumentParams) {
        let uri = params.text_document.uri;
        {
            let mut st = self.0.lock();
            st.docs.remove(uri.as_str());
            if let Some(check) = st.save_checks.remove(uri.as_str()) {
                check.store(true, Ordering::SeqCst);
            }
        }
        self.0
            .client
            .publish_diagnostics(uri, Vec::new(), None)
            .await;
    }

    async fn execute_command(&self, params: ExecuteCommandParams) -> Result<Option<LSPAny>> {
        let args = params.arguments;
        match params.command.as_str() {
            "miau.checkLevel" | "miau.checkPack" => {
                let uri = Self::uri_arg(&args)
                    .ok_or_else(|| Error::invalid_params("expected a document URI"))?;
                let only = if params.command == "miau.checkLevel" {
                    Some(
                        Self::level_arg(&args)
                            .ok_or_else(|| Error::invalid_params("expected a level id"))?,
                    )
                } else {
                    None
                };
                let token = match params.work_done_progress_params.work_done_token {
                    Some(t) => Some(t),
                    None => self.0.new_token().await,
                };
                let cancel = Arc::new(AtomicBool::new(false));
                let guard = CancelOnDrop(Arc::clone(&cancel));
                let this = Arc::clone(&self.0);
                // The check runs as its own task: a cancelled request drops
                // `guard`, which stops the task at the next level.
                let task = tokio::spawn(async move { this.check(uri, only, token, cancel).await });
                let out = task.await.unwrap_or(Value::Null);
                drop(guard);
                Ok(Some(out))
            }
            "miau.replaySolution" => {
                let uri = Self::uri_arg(&args)
                    .ok_or_else(|| Error::invalid_params("expected a document URI"))?;
                let id = Self::level_arg(&args)
                    .ok_or_else(|| Error::invalid_params("expected a level id"))?;
                let Some(a) = self.0.analysis(&uri).await else {
                    return Ok(None);
                };
                let text = tokio::task::spawn_blocking(move || ide::replay_level(&a, &id))
                    .await
                    .ok()
                    .flatten();
                if let Some(t) = &text {
                    self.0.client.log_message(MessageType::INFO, t).await;
                }
                Ok(text.map(Value::String))
            }
            "miau.select" => {
                // After a fix with a placeholder: select it, so typing replaces it.
                let uri = Self::uri_arg(&args)
                    .ok_or_else(|| Error::invalid_params("expected a document URI"))?;
                let range: Range = args
                    .get(1)
                    .cloned()
                    .and_then(|v| serde_json::from_value(v).ok())
                    .ok_or_else(|| Error::invalid_params("expected a range"))?;
                // Only a client that declared `window/showDocument` is asked,
                // and one that never answers holds the command up for at most
                // SHOW_DOCUMENT_TIMEOUT, as with progress tokens.
                if !self.0.show_document.load(Ordering::Relaxed) {
                    return Ok(None);
                }
                let shown = self.0.client.show_document(ShowDocumentParams {
                    uri,
                    external: None,
                    take_focus: Some(true),
                    selection: Some(range),
                });
                let _ = tokio::time::timeout(SHOW_DOCUMENT_TIMEOUT, shown).await;
                Ok(None)
            }
            "miau.cancelCheck" => {
                for flag in self.0.lock().cancels.values() {
                    flag.store(true, Ordering::SeqCst);
                }
                Ok(None)
            }
            other => Err(Error::invalid_params(format!("unknown command {other}"))),
        }
    }

    async fn formatting(&self, params: DocumentFormattingParams) -> Result<Option<Vec<TextEdit>>> {
        let Some(a) = self.0.analysis(&params.text_document.uri).await else {
            return Ok(None);
        };
        let enc = self.0.enc();
        off_thread(move |cancel| {
            let edits = ide::format(&a);
            (!cancel.load(Ordering::Relaxed)).then(|| {
                edits.map(|edits| {
                    edits
                        .into_iter()
                        .map(|e| TextEdit {
                            range: lsp_range(&a, e.span, enc),
                            new_text: e.new_text,
                        })
                        .collect()
                })
            })
        })
        .await
    }

    async fn code_action(&self, params: CodeActionParams) -> Result<Option<CodeActionResponse>> {
        let uri = params.text_document.uri;
        let Some(a) = self.0.analysis(&uri).await else {
            return Ok(None);
        };
        let enc = self.0.enc();
        let docs = self.0.docs_url();
        let select = self.0.show_document.load(Ordering::Relaxed);
        let start = offset_of(&a, params.range.start, enc);
        let end = offset_of(&a, params.range.end, enc).max(start);
        let range = crate::span::Span::new(start, end);
        // "Record solution": for each level the range touches whose last
        // check (of this very text) found a route the level doesn't record,
        // unless a warning changes how the level plays (the route would
        // record that warning's effect; `miauc check --fix` waits too).
        let caused = crate::diag::levels_with_causes(a.diagnostics());
        let routes: Vec<(String, String)> = {
            let st = self.0.lock();
            st.docs
                .get(uri.as_str())
                .map(|doc| {
                    doc.stage4
                        .iter()
                        .filter(|(id, _)| !caused.contains(id.as_str()))
                        .filter_map(|(id, s4)| {
                            let i = a.level_index(id)?;
                            let whole = a.ast_levels().get(i)?.block.whole();
                            let (key, _) = level_key(&a, i)?;
                            (key == s4.key && whole.start <= range.end && range.start <= whole.end)
                                .then(|| Some((id.clone(), s4.route.clone()?)))?
                        })
                        .collect()
                })
                .unwrap_or_default()
        };
        off_thread(move |cancel| {
            let to_lsp = |d: &Diagnostic| lsp_diagnostic(&uri, &a, d, enc, docs.as_deref());
            let workspace_edit = |edits: Vec<TextEdit>| {
                let mut changes = HashMap::new();
                changes.insert(uri.clone(), edits);
                WorkspaceEdit {
                    changes: Some(changes),
                    ..Default::default()
                }
            };
            let mut actions: Vec<CodeActionOrCommand> = Vec::new();
            for (id, route) in routes {
                let Some(rec) = ide::record_action(&a, &id, &route) else {
                    continue;
                };
                let settles: Vec<_> = rec
                    .settles
                    .iter()
                    .filter_map(|&k| a.diagnostics().get(k))
                    .map(to_lsp)
                    .collect();
                actions.push(CodeActionOrCommand::CodeAction(CodeAction {
                    title: rec.title,
                    kind: Some(CodeActionKind::QUICKFIX),
                    diagnostics: (!settles.is_empty()).then_some(settles),
                    edit: Some(workspace_edit(vec![TextEdit {
                        range: lsp_range(&a, rec.edit.span, enc),
                        new_text: rec.edit.new_text,
                    }])),
                    is_preferred: Some(true),
                    ..Default::default()
                }));
            }
            for (n, act) in ide::code_actions(&a, range).into_iter().enumerate() {
                if stop(n, cancel) {
                    return None;
                }
                let command = if select {
                    ide::placeholder(&act).map(|(i, within)| {
                        let e = &act.edits[i];
                        let sel = placeholder_range(&a, e, &act.edits, within, enc);
                        Command {
                            title: "Select the placeholder".into(),
                            command: "miau.select".into(),
                            arguments: Some(vec![json!(uri.as_str()), json!(sel)]),
                        }
                    })
                } else {
                    None
                };
                let edits = act
                    .edits
                    .iter()
                    .map(|e| TextEdit {
                        range: lsp_range(&a, e.span, enc),
                        new_text: e.new_text.clone(),
                    })
                    .collect();
                let diagnostics = a.diagnostics().get(act.diagnostic).map(|d| vec![to_lsp(d)]);
                actions.push(CodeActionOrCommand::CodeAction(CodeAction {
                    title: act.title,
                    kind: Some(CodeActionKind::QUICKFIX),
                    diagnostics,
                    edit: Some(workspace_edit(edits)),
                    command,
                    ..Default::default()
                }));
            }
            Some(Some(actions))
        })
        .await
    }

    async fn hover(&self, params: HoverParams) -> Result<Option<Hover>> {
        let pos = params.text_document_position_params;
        let Some(a) = self.0.analysis(&pos.text_document.uri).await else {
            return Ok(None);
        };
        let checks = self
            .0
            .lock()
            .docs
            .get(pos.text_document.uri.as_str())
            .map(|d| d.checks.clone())
            .unwrap_or_default();
        let enc = self.0.enc();
        off_thread(move |_| {
            let offset = offset_of(&a, pos.position, enc);
            Some(ide::hover_with_checks(&a, offset, &checks).map(|h| Hover {
                contents: HoverContents::Markup(MarkupContent {
                    kind: MarkupKind::Markdown,
                    value: h.markdown,
                }),
                range: Some(lsp_range(&a, h.span, enc)),
            }))
        })
        .await
    }

    async fn goto_definition(
        &self,
        params: GotoDefinitionParams,
    ) -> Result<Option<GotoDefinitionResponse>> {
        let pos = params.text_document_position_params;
        let uri = pos.text_document.uri;
        let Some(a) = self.0.analysis(&uri).await else {
            return Ok(None);
        };
        let enc = self.0.enc();
        let spans = ide::definition(&a, offset_of(&a, pos.position, enc));
        if spans.is_empty() {
            return Ok(None);
        }
        Ok(Some(GotoDefinitionResponse::Array(convert::locations(
            &a, &uri, spans, enc,
        ))))
    }

    async fn references(&self, params: ReferenceParams) -> Result<Option<Vec<Location>>> {
        let pos = params.text_document_position;
        let uri = pos.text_document.uri;
        let Some(a) = self.0.analysis(&uri).await else {
            return Ok(None);
        };
        let enc = self.0.enc();
        off_thread(move |_| {
            let spans = ide::references(
                &a,
                offset_of(&a, pos.position, enc),
                params.context.include_declaration,
            );
            Some(Some(convert::locations(&a, &uri, spans, enc)))
        })
        .await
    }

    async fn prepare_rename(
        &self,
        params: TextDocumentPositionParams,
    ) -> Result<Option<PrepareRenameResponse>> {
        let Some(a) = self.0.analysis(&params.text_document.uri).await else {
            return Ok(None);
        };
        let enc = self.0.enc();
        Ok(ide::rename_range(&a, offset_of(&a, params.position, enc))
            .map(|s| PrepareRenameResponse::Range(lsp_range(&a, s, enc))))
    }

    async fn rename(&self, params: RenameParams) -> Result<Option<WorkspaceEdit>> {
        let pos = params.text_document_position;
        let uri = pos.text_document.uri;
        let Some(a) = self.0.analysis(&uri).await else {
            return Ok(None);
        };
        let enc = self.0.enc();
        let edits = ide::rename(&a, offset_of(&a, pos.position, enc), &params.new_name)
            .map_err(Error::invalid_params)?;
        let mut changes = HashMap::new();
        changes.insert(
            uri,
            edits
                .into_iter()
                .map(|e| TextEdit {
                    range: lsp_range(&a, e.span, enc),
                    new_text: e.new_text,
                })
                .collect(),
        );
        Ok(Some(WorkspaceEdit {
            changes: Some(changes),
            ..Default::default()
        }))
    }

    async fn completion(&self, params: CompletionParams) -> Result<Option<CompletionResponse>> {
        let pos = params.text_document_position;
        let Some(a) = self.0.analysis(&pos.text_document.uri).await else {
            return Ok(None);
        };
        let enc = self.0.enc();
        off_thread(move |_| {
            let items = ide::completions(&a, offset_of(&a, pos.position, enc))
                .into_iter()
                .map(|c| CompletionItem {
                    kind: Some(match c.kind {
                        ide::CompletionKind::Keyword => CompletionItemKind::KEYWORD,
                        ide::CompletionKind::Key => CompletionItemKind::VARIABLE,
                        ide::CompletionKind::Noun => CompletionItemKind::CLASS,
                        ide::CompletionKind::Property => CompletionItemKind::ENUM_MEMBER,
                        ide::CompletionKind::Operator => CompletionItemKind::OPERATOR,
                        ide::CompletionKind::Value => CompletionItemKind::VALUE,
                    }),
                    detail: Some(c.detail),
                    label: c.label,
                    ..Default::default()
                })
                .collect();
            Some(Some(CompletionResponse::Array(items)))
        })
        .await
    }

    async fn document_symbol(
        &self,
        params: DocumentSymbolParams,
    ) -> Result<Option<DocumentSymbolResponse>> {
        let Some(a) = self.0.analysis(&params.text_document.uri).await else {
            return Ok(None);
        };
        let enc = self.0.enc();
        off_thread(move |_| {
            Some(Some(DocumentSymbolResponse::Nested(
                ide::document_symbols(&a)
                    .iter()
                    .map(|s| symbol(&a, s, enc))
                    .collect(),
            )))
        })
        .await
    }

    async fn folding_range(&self, params: FoldingRangeParams) -> Result<Option<Vec<FoldingRange>>> {
        let Some(a) = self.0.analysis(&params.text_document.uri).await else {
            return Ok(None);
        };
        let enc = self.0.enc();
        off_thread(move |_| {
            Some(Some(
                ide::folding_ranges(&a)
                    .into_iter()
                    .map(|f| {
                        let s = lsp_position(&a, f.start, enc);
                        let e = lsp_position(&a, f.end, enc);
                        FoldingRange {
                            start_line: s.line,
                            start_character: None,
                            end_line: e.line,
                            end_character: None,
                            kind: Some(if f.comment {
                                FoldingRangeKind::Comment
                            } else {
                                FoldingRangeKind::Region
                            }),
                            collapsed_text: None,
                        }
                    })
                    .collect(),
            ))
        })
        .await
    }

    async fn semantic_tokens_full(
        &self,
        params: SemanticTokensParams,
    ) -> Result<Option<SemanticTokensResult>> {
        let Some(a) = self.0.analysis(&params.text_document.uri).await else {
            return Ok(None);
        };
        let enc = self.0.enc();
        off_thread(move |cancel| {
            let mut data = Vec::new();
            let (mut line, mut col) = (0u32, 0u32);
            for (n, t) in ide::semantic_tokens_until(&a, cancel)?
                .into_iter()
                .enumerate()
            {
                if stop(n, cancel) {
                    return None;
                }
                let s = lsp_position(&a, t.span.start as usize, enc);
                let e = lsp_position(&a, t.span.end as usize, enc);
                if e.line != s.line || e.character <= s.character {
                    continue;
                }
                let delta_line = s.line - line;
                let delta_start = if delta_line == 0 {
                    s.character - col
                } else {
                    s.character
                };
                data.push(SemanticToken {
                    delta_line,
                    delta_start,
                    length: e.character - s.character,
                    token_type: token_type(t.kind),
                    token_modifiers_bitset: u32::from(t.fixed) | (u32::from(t.declaration) << 1),
                });
                line = s.line;
                col = s.character;
            }
            Some(Some(SemanticTokensResult::Tokens(SemanticTokens {
                result_id: None,
                data,
            })))
        })
        .await
    }

    async fn inlay_hint(&self, params: InlayHintParams) -> Result<Option<Vec<InlayHint>>> {
        let Some(a) = self.0.analysis(&params.text_document.uri).await else {
            return Ok(None);
        };
        let enc = self.0.enc();
        off_thread(move |_| {
            Some(Some(
                ide::inlay_hints(&a)
                    .into_iter()
                    .map(|h| InlayHint {
                        position: lsp_position(&a, h.offset, enc),
                        label: InlayHintLabel::String(h.label),
                        kind: None,
                        text_edits: None,
                        tooltip: Some(InlayHintTooltip::String(
                            "The rules this board forms at reset".into(),
                        )),
                        padding_left: Some(true),
                        padding_right: None,
                        data: None,
                    })
                    .collect(),
            ))
        })
        .await
    }

    async fn code_lens(&self, params: CodeLensParams) -> Result<Option<Vec<CodeLens>>> {
        let uri = params.text_document.uri;
        let Some(a) = self.0.analysis(&uri).await else {
            return Ok(None);
        };
        let enc = self.0.enc();
        off_thread(move |_| {
            Some(Some(
                ide::code_lenses(&a)
                    .into_iter()
                    .map(|l| CodeLens {
                        range: lsp_range(&a, l.span, enc),
                        command: Some(Command {
                            title: l.title,
                            command: l.command,
                            arguments: Some(vec![json!(uri.as_str()), json!(l.level)]),
                        }),
                        data: None,
                    })
                    .collect(),
            ))
        })
        .await
    }
}

#[allow(deprecated)] // `DocumentSymbol::deprecated` must still be written.
fn symbol(a: &Analysis, s: &ide::Symbol, enc: Encoding) -> DocumentSymbol {
    DocumentSymbol {
        name: if s.name.is_empty() {
            "?".into()
        } else {
            s.name.clone()
        },
        detail: s.detail.clone(),
        kind: match s.kind {
            ide::SymbolKind::Pack => SymbolKind::PACKAGE,
            ide::SymbolKind::Block => SymbolKind::OBJECT,
            ide::SymbolKind::Level => SymbolKind::MODULE,
            ide::SymbolKind::Key => SymbolKind::VARIABLE,
            ide::SymbolKind::Noun => SymbolKind::CLASS,
            ide::SymbolKind::Property => SymbolKind::PROPERTY,
        },
        tags: None,
        deprecated: None,
        range: lsp_range(a, s.span, enc),
        selection_range: lsp_range(a, s.selection, enc),
        children: (!s.children.is_empty())
            .then(|| s.children.iter().map(|c| symbol(a, c, enc)).collect()),
    }
}

fn capabilities(utf8: bool) -> ServerCapabilities {
    ServerCapabilities {
        position_encoding: Some(if utf8 {
            PositionEncodingKind::UTF8
        } else {
            PositionEncodingKind::UTF16
        }),
        text_document_sync: Some(TextDocumentSyncCapability::Options(
            TextDocumentSyncOptions {
                open_close: Some(true),
                change: Some(TextDocumentSyncKind::FULL),
                save: Some(TextDocumentSyncSaveOptions::Supported(true)),
                ..Default::default()
            },
        )),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        rename_provider: Some(OneOf::Right(RenameOptions {
            prepare_provider: Some(true),
            work_done_progress_options: Default::default(),
        })),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(vec![" ".into(), "+".into(), "\"".into()]),
            ..Default::default()
        }),
        document_symbol_provider: Some(OneOf::Left(true)),
        folding_range_provider: Some(FoldingRangeProviderCapability::Simple(true)),
        semantic_tokens_provider: Some(SemanticTokensServerCapabilities::SemanticTokensOptions(
            SemanticTokensOptions {
                legend: SemanticTokensLegend {
                    token_types: TOKEN_TYPES.to_vec(),
                    token_modifiers: TOKEN_MODIFIERS.to_vec(),
                },
                full: Some(SemanticTokensFullOptions::Bool(true)),
                range: None,
                work_done_progress_options: Default::default(),
            },
        )),
        document_formatting_provider: Some(OneOf::Left(true)),
        code_action_provider: Some(CodeActionProviderCapability::Simple(true)),
        inlay_hint_provider: Some(OneOf::Left(true)),
        code_lens_provider: Some(CodeLensOptions {
            resolve_provider: Some(false),
        }),
        execute_command_provider: Some(ExecuteCommandOptions {
            commands: COMMANDS.iter().map(|c| c.to_string()).collect(),
            work_done_progress_options: WorkDoneProgressOptions {
                work_done_progress: Some(true),
            },
        }),
        workspace: Some(WorkspaceServerCapabilities {
            workspace_folders: Some(WorkspaceFoldersServerCapabilities {
                supported: Some(true),
                change_notifications: Some(OneOf::Left(true)),
            }),
            file_operations: None,
        }),
        ..Default::default()
    }
}

/// Build the service, for in-process tests and for [`run_stdio`].
pub fn service() -> (LspService<MiauServer>, tower_lsp_server::ClientSocket) {
    LspService::build(|client| MiauServer(Arc::new(Backend::new(client))))
        .custom_method(
            "window/workDoneProgress/cancel",
            MiauServer::cancel_progress,
        )
        .custom_method("miau/level", MiauServer::preview_level)
        .custom_method("miau/step", MiauServer::preview_step)
        .finish()
}

/// The largest message body passed on to the protocol layer; larger ones are
/// read and dropped, so a hostile length can't make the server allocate without bound.
const MAX_MESSAGE_BYTES: usize = 64 * 1024 * 1024;

/// Whether a message body is one JSON-RPC request, notification or response.
fn is_message(body: &[u8]) -> bool {
    serde_json::from_slice::<tower_lsp_server::jsonrpc::Request>(body).is_ok()
        || serde_json::from_slice::<tower_lsp_server::jsonrpc::Response>(body).is_ok()
}

/// Set when a `shutdown` request passed the frame filter: `exit` after it
/// ends the process with status 0, `exit` without it with status 1 (LSP).
static SHUTDOWN_SEEN: AtomicBool = AtomicBool::new(false);

/// Input with bytes pushed back in front: the frame filter un-reads what
/// turned out to be the start of the next frame.
struct Frames<R> {
    reader: tokio::io::BufReader<R>,
    pending: Vec<u8>,
}

impl<R: tokio::io::AsyncRead + Unpin> Frames<R> {
    /// One line (through `\n`) of at most `limit` bytes; `None` at the end of the input.
    async fn line(&mut self, limit: usize) -> Option<Vec<u8>> {
        use tokio::io::{AsyncBufReadExt, AsyncReadExt};
        if !self.pending.is_empty() {
            let end = self
                .pending
                .iter()
                .take(limit)
                .position(|&b| b == b'\n')
                .map_or(self.pending.len().min(limit), |i| i + 1);
            let line: Vec<u8> = self.pending.drain(..end).collect();
            if line.ends_with(b"\n") || line.len() == limit {
                return Some(line);
            }
            // The pending bytes end mid-line: the rest comes from the input.
            let mut rest = Vec::new();
            let _ = (&mut self.reader)
                .take((limit - line.len()) as u64)
                .read_until(b'\n', &mut rest)
                .await;
            return Some([line, rest].concat());
        }
        let mut line = Vec::new();
        match (&mut self.reader)
            .take(limit as u64)
            .read_until(b'\n', &mut line)
            .await
        {
            Ok(0) | Err(_) => None,
            Ok(_) => Some(line),
        }
    }

    /// Up to `max` more bytes, as many as are ready; `None` at the end of the input.
    async fn chunk(&mut self, max: usize) -> Option<Vec<u8>> {
        use tokio::io::AsyncBufReadExt;
        if !self.pending.is_empty() {
            let n = self.pending.len().min(max);
            return Some(self.pending.drain(..n).collect());
        }
        let buf = self.reader.fill_buf().await.ok()?;
        if buf.is_empty() {
            return None;
        }
        let n = buf.len().min(max);
        let out = buf[..n].to_vec();
        self.reader.consume(n);
        Some(out)
    }

    fn unread(&mut self, bytes: &[u8]) {
        self.pending.splice(0..0, bytes.iter().copied());
    }
}

/// A `Content-Length` header line found in bytes that may be cut short.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum HeaderScan {
    /// A header starts here: the name, digits and a line break.
    At(usize),
    /// The name and digits run to the end of the bytes: a header only if a
    /// line break follows, which bytes not read yet decide.
    Undecided(usize),
    /// No header, nor the start of one.
    None,
}

/// Where a `Content-Length` header line starts in `bytes`, if one does
/// (case-insensitive). A JSON body can't hold one (a JSON string can't hold
/// a raw line break), so one inside a body means its length was wrong.
fn scan_header(bytes: &[u8], from: usize) -> HeaderScan {
    const NAME: &[u8] = b"content-length:";
    let mut start = from.min(bytes.len());
    while let Some(i) = bytes[start..]
        .windows(NAME.len())
        .position(|w| w.eq_ignore_ascii_case(NAME))
        .map(|i| start + i)
    {
        // A header: digits, then the blank line that ends the headers.
        let rest = &bytes[i + NAME.len()..];
        let spaces = rest
            .iter()
            .take_while(|b| **b == b' ' || **b == b'\t')
            .count();
        let rest = &rest[spaces..];
        let n = rest.iter().take_while(|b| b.is_ascii_digit()).count();
        if rest.len() == n {
            return HeaderScan::Undecided(i);
        }
        if n > 0 && (rest[n..].starts_with(b"\r\n") || rest[n..].starts_with(b"\n")) {
            return HeaderScan::At(i);
        }
        start = i + 1;
    }
    // A name cut short at the end may still become a header.
    let tail = bytes.len().saturating_sub(NAME.len() - 1).max(start);
    match (tail..bytes.len()).find(|&i| NAME[..bytes.len() - i].eq_ignore_ascii_case(&bytes[i..])) {
        Some(i) => HeaderScan::Undecided(i),
        None => HeaderScan::None,
    }
}

/// Where a header starts in a line read whole (or cut at its length limit,
/// where digits running to the end count as a header).
fn header_in(line: &[u8], from: usize) -> Option<usize> {
    match scan_header(line, from) {
        HeaderScan::At(i) => Some(i),
        HeaderScan::Undecided(i) => {
            let rest = line.get(i + b"content-length:".len()..).unwrap_or_default();
            rest.iter().any(u8::is_ascii_digit).then_some(i)
        }
        _ => None,
    }
}

/// A `$/` request (with an id) renamed so the protocol layer answers it
/// with MethodNotFound, as LSP requires; the layer otherwise drops every
/// `$/` method without a reply, and the client waits forever.
fn answerable(body: Vec<u8>) -> Vec<u8> {
    let Ok(mut v) = serde_json::from_slice::<serde_json::Value>(&body) else {
        return body;
    };
    let Some(method) = v.get("method").and_then(|m| m.as_str()) else {
        return body;
    };
    if method == "shutdown" {
        SHUTDOWN_SEEN.store(true, Ordering::SeqCst);
    }
    if !method.starts_with("$/") || v.get("id").is_none() {
        return body;
    }
    v["method"] = serde_json::Value::String(format!("miau/unsupported{method}"));
    serde_json::to_vec(&v).unwrap_or(body)
}

/// Copy LSP frames from `input` to `output`, passing on only well-formed
/// JSON-RPC messages with a plain `Content-Length` header.
///
/// The protocol layer stops reading for good at the first frame it can't
/// decode (a body that isn't JSON-RPC, a missing length, an unknown charset),
/// which would leave the editor with a dead server; this filter drops such
/// frames instead (noting each on stderr) and keeps the connection alive.
/// After a frame with a missing or wrong length it resynchronises on the next
/// `Content-Length` header, wherever it starts, so later frames aren't glued
/// onto the bad one.
pub async fn filter_frames<R, W>(input: R, mut output: W)
where
    R: tokio::io::AsyncRead + Unpin,
    W: tokio::io::AsyncWrite + Unpin,
{
    use tokio::io::AsyncWriteExt;
    let mut frames = Frames {
        reader: tokio::io::BufReader::new(input),
        pending: Vec::new(),
    };
    loop {
        let mut len: Option<usize> = None;
        let mut headers = 0;
        loop {
            // Header lines are short; a line without end is garbage, read in bounded pieces.
            let Some(mut line) = frames.line(8192).await else {
                return;
            };
            // A header glued onto the tail of a bad frame starts mid-line.
            if let Some(at) = header_in(&line, 1) {
                eprintln!("miauc lsp: dropped {at} bytes before a Content-Length header");
                line.drain(..at);
                len = None;
                headers = 0;
            }
            let text = String::from_utf8_lossy(&line);
            let text = text.trim();
            if text.is_empty() {
                if headers > 0 {
                    break;
                }
                continue;
            }
            headers += 1;
            if let Some((name, value)) = text.split_once(':') {
                if name.trim().eq_ignore_ascii_case("content-length") {
                    len = value.trim().parse().ok();
                }
            }
        }
        let Some(len) = len else {
            eprintln!("miauc lsp: dropped a message without a Content-Length header");
            continue;
        };
        if len > MAX_MESSAGE_BYTES {
            eprintln!("miauc lsp: dropped a message of {len} bytes");
            let mut left = len;
            while left > 0 {
                let Some(c) = frames.chunk(left.min(1 << 16)).await else {
                    return;
                };
                left -= c.len();
            }
            continue;
        }
        // The body, as it arrives: a header inside it means the length was
        // too long, and the next frame starts there (no waiting for bytes
        // that will never come).
        let mut body = Vec::with_capacity(len.min(1 << 20));
        let mut cut = None;
        // Where the scan resumes: past everything that can't start a header,
        // at a candidate the next bytes decide (text such as
        // `content-length: 123…` reaching the end of a read is no header
        // until a line break follows it).
        let mut from = 0;
        while body.len() < len {
            let Some(c) = frames.chunk(len - body.len()).await else {
                return;
            };
            body.extend_from_slice(&c);
            match scan_header(&body, from) {
                HeaderScan::At(at) => {
                    cut = Some(at);
                    break;
                }
                HeaderScan::Undecided(at) => from = at,
                HeaderScan::None => from = body.len(),
            }
        }
        if let Some(at) = cut {
            frames.unread(&body[at..]);
            eprintln!("miauc lsp: dropped a message whose Content-Length was too long");
            continue;
        }
        if !is_message(&body) {
            eprintln!("miauc lsp: dropped a message that isn't JSON-RPC");
            continue;
        }
        let body = answerable(body);
        let header = format!("Content-Length: {}\r\n\r\n", body.len());
        if output.write_all(header.as_bytes()).await.is_err()
            || output.write_all(&body).await.is_err()
            || output.flush().await.is_err()
        {
            return;
        }
    }
}

/// Serve LSP over standard input and output until the client exits.
pub fn run_stdio() -> std::process::ExitCode {
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("miauc lsp: cannot start the runtime: {e}");
            return std::process::ExitCode::from(1);
        }
    };
    runtime.block_on(async {
        let (service, socket) = service();
        let (filtered, sink) = tokio::io::duplex(1 << 20);
        tokio::spawn(filter_frames(tokio::io::stdin(), sink));
        Server::new(filtered, tokio::io::stdout(), socket)
            .serve(service)
            .await;
    });
    // Blocking tasks (an analysis in flight) must not keep the process alive after `exit`.
    runtime.shutdown_timeout(Duration::from_millis(100));
    // LSP: exit status 0 after a `shutdown` request, 1 otherwise.
    std::process::ExitCode::from(u8::from(!SHUTDOWN_SEEN.load(Ordering::SeqCst)))
}

#[cfg(test)]
mod frame_tests {
    use super::{HeaderScan, header_in, scan_header};

    #[test]
    fn a_header_needs_its_line_break() {
        assert_eq!(
            scan_header(b"xContent-Length: 12\r\n", 0),
            HeaderScan::At(1)
        );
        assert_eq!(scan_header(b"content-length:7\n", 0), HeaderScan::At(0));
        // Text in a JSON string: digits then a quote, never a raw line break.
        assert_eq!(
            scan_header(b"{\"text\":\"content-length: 12\"}", 0),
            HeaderScan::None
        );
        assert_eq!(scan_header(b"content-length: x\n", 0), HeaderScan::None);
    }

    #[test]
    fn digits_or_a_name_at_the_end_are_undecided() {
        let digits = format!("\"content-length: {}", "9".repeat(5000));
        assert_eq!(scan_header(digits.as_bytes(), 0), HeaderScan::Undecided(1));
        assert_eq!(scan_header(b"abc Content-Le", 0), HeaderScan::Undecided(4));
        // A later candidate is still found after a rejected one.
        assert_eq!(
            scan_header(b"content-length: 1\" content-length: 2\n", 0),
            HeaderScan::At(19)
        );
    }

    #[test]
    fn a_line_cut_at_its_limit_keeps_a_header_with_digits() {
        assert_eq!(header_in(b"junk content-length: 123", 1), Some(5));
        assert_eq!(header_in(b"junk content-length: ", 1), None);
        assert_eq!(header_in(b"junk content-len", 1), None);
    }
}

//! The open documents: their text and versions, the debounced analysis of
//! each edit, and the diagnostics published for it.
//!
//! An edit stores the new text and starts its analysis at once; at most one
//! analysis per document runs at a time, edits that arrive meanwhile are
//! gathered and analysed after [`DEBOUNCE`], and the latest edit wins.
//! Requests ask [`Backend::analysis`] for the analysis of the latest text,
//! which waits for the one in flight rather than start a second. Publishing joins stages 1–3 with the stage 4 findings `check`
//! keeps for levels whose text hasn't changed since.

use super::Backend;
use super::check::{Stage4, level_key};
use super::convert::lsp_diagnostic;
use crate::diag::Diagnostic;
use crate::ide::{self, Analysis};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;
use tower_lsp_server::ls_types::{
    DiagnosticSeverity, DidChangeTextDocumentParams, DidCloseTextDocumentParams,
    DidOpenTextDocumentParams, Range, Uri,
};

/// How long a running analysis loop waits before analysing the edits that
/// arrived while it ran, so that a burst of keystrokes is analysed once.
const DEBOUNCE: Duration = Duration::from_millis(3);

/// Documents larger than this are not analysed (a hostile or mistaken client
/// can't make the server spend seconds per keystroke); they get one diagnostic.
/// The largest pack the loader accepts (64 levels of 128×128 cells) fits.
pub const MAX_DOCUMENT_BYTES: usize = 4 * 1024 * 1024;

/// One open document.
pub(super) struct Document {
    pub(super) uri: Uri,
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
    pub(super) stage4: BTreeMap<String, Stage4>,
    /// The last check summary of each level, for level hovers.
    pub(super) checks: BTreeMap<String, String>,
}

/// `textDocument/didOpen`: the document's first text.
pub(super) fn did_open(server: &Arc<Backend>, params: DidOpenTextDocumentParams) {
    let doc = params.text_document;
    server.update(doc.uri, doc.version, doc.text);
}

/// `textDocument/didChange`: the document's new text.
pub(super) fn did_change(server: &Arc<Backend>, params: DidChangeTextDocumentParams) {
    // Full sync: the last change carries the whole text.
    if let Some(change) = params.content_changes.into_iter().last() {
        let doc = params.text_document;
        server.update(doc.uri, doc.version, change.text);
    }
}

/// `textDocument/didClose`: forget the document, stop its check on save,
/// and clear its diagnostics.
pub(super) async fn did_close(server: &Backend, params: DidCloseTextDocumentParams) {
    let uri = params.text_document.uri;
    {
        let mut st = server.lock();
        st.docs.remove(uri.as_str());
        if let Some(check) = st.save_checks.remove(uri.as_str()) {
            check.store(true, Ordering::SeqCst);
        }
    }
    server
        .client
        .publish_diagnostics(uri, Vec::new(), None)
        .await;
}

impl Backend {
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
        // No wait before the first analysis: an edit to an idle document is
        // analysed at once. Edits that arrive while one runs are gathered by
        // the running loop, which waits [`DEBOUNCE`] before its next round.
        let this = Arc::clone(self);
        tokio::spawn(this.analyse_loop(key));
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
            let mut replaced = None;
            let current = {
                let mut st = self.lock();
                let Some(doc) = st.docs.get_mut(&key) else {
                    return;
                };
                doc.running = false;
                match result {
                    Ok(a) => {
                        if doc.analysed_seq < seq {
                            replaced = doc.analysis.replace(a);
                            doc.analysed_seq = seq;
                        }
                    }
                    // The analysis panicked: keep serving, and don't retry this text.
                    Err(_) => doc.published_seq = seq,
                }
                doc.analysed.notify_waiters();
                doc.seq == seq && doc.published_seq < seq
            };
            // Freeing a pack's analysis takes as long as a small edit's whole
            // analysis: do it on the blocking pool, not before publishing.
            if let Some(old) = replaced {
                tokio::task::spawn_blocking(move || drop(old));
            }
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
    pub(super) async fn publish(&self, key: &str) {
        let enc = self.enc();
        let docs = self.docs_url();
        let (uri, version, diagnostics) = {
            let st = self.lock();
            let Some(doc) = st.docs.get(key) else { return };
            let Some(a) = doc.analysis.clone() else {
                return;
            };
            // An edit that arrived after this analysis is analysed and
            // published by its own loop; published now, the older analysis
            // would go out under the newer text's version.
            if doc.analysed_seq != doc.seq {
                return;
            }
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
                all.extend(s4.diagnostics.iter().map(|d| d.shifted(0, start as i64)));
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
    pub(super) async fn analysis(&self, uri: &Uri) -> Option<Arc<Analysis>> {
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
}

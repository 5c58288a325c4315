//! Stage 4 in the background: checking levels with `$/progress` and
//! cancellation, the check after a save, and the findings kept per level.
//!
//! A level's findings are stored with spans relative to the level's start
//! and a hash of its text ([`Stage4`]), so `documents` publishes them only
//! while that level reads as it did when checked, wherever it has moved.

use super::Backend;
use crate::diag::Diagnostic;
use crate::ide::{self, Analysis};
use serde_json::{Value, json};
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use tower_lsp_server::ls_types::{
    DidSaveTextDocumentParams, NumberOrString, ProgressToken, Uri, WorkDoneProgressCancelParams,
};

/// How long a save waits for later saves of the same document before its
/// check starts.
const SAVE_SETTLE: Duration = Duration::from_millis(300);

/// How long a background check waits for the client to accept its
/// progress token before it runs without one.
const PROGRESS_CREATE_TIMEOUT: Duration = Duration::from_secs(2);

/// Stage 4 diagnostics of one level, with spans relative to the level's start,
/// valid while the level's text hashes to `key`.
pub(super) struct Stage4 {
    pub(super) key: u64,
    pub(super) diagnostics: Vec<Diagnostic>,
    /// The solver's route, for "Record solution".
    pub(super) route: Option<String>,
    /// The fewest steps a route can take when that route isn't proven
    /// shortest: the bound "Record solution" writes with its length.
    pub(super) at_least: Option<usize>,
}

/// The hash of level `i`'s text and where the level starts.
pub(super) fn level_key(a: &Analysis, i: usize) -> Option<(u64, usize)> {
    let l = a.ast_levels().get(i).copied()?;
    let whole = l.block.whole();
    let mut h = DefaultHasher::new();
    a.slice(whole).hash(&mut h);
    Some((h.finish(), whole.start as usize))
}

/// `window/workDoneProgress/cancel`: stop the check running under that token.
pub(super) fn cancel_progress(server: &Backend, params: WorkDoneProgressCancelParams) {
    let key = match params.token {
        NumberOrString::Number(n) => n.to_string(),
        NumberOrString::String(s) => s,
    };
    if let Some(flag) = server.lock().cancels.get(&key) {
        flag.store(true, Ordering::SeqCst);
    }
}

/// Stop every running check (`shutdown`, `miau.cancelCheck`).
pub(super) fn cancel_all(server: &Backend) {
    for flag in server.lock().cancels.values() {
        flag.store(true, Ordering::SeqCst);
    }
}

/// `textDocument/didSave`: check the whole pack once the saves settle.
pub(super) fn did_save(server: &Arc<Backend>, params: DidSaveTextDocumentParams) {
    let uri = params.text_document.uri;
    if !server.lock().docs.contains_key(uri.as_str()) {
        return;
    }
    let cancel = Arc::new(AtomicBool::new(false));
    let superseded = server
        .lock()
        .save_checks
        .insert(uri.as_str().to_string(), Arc::clone(&cancel));
    if let Some(previous) = superseded {
        previous.store(true, Ordering::SeqCst);
    }
    let this = Arc::clone(server);
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

impl Backend {
    /// Check levels of a document (all when `only` is `None`) in the
    /// background, reporting progress on `token`; stops between levels when cancelled.
    pub(super) async fn check(
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
                    .map(|d| d.shifted(0, -(start as i64)))
                    .collect(),
                route: o.route.clone(),
                at_least: o
                    .shortest
                    .and_then(|(fewest, longest)| (fewest < longest).then_some(fewest)),
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
    pub(super) async fn new_token(&self) -> Option<ProgressToken> {
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

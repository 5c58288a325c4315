//! `textDocument/codeAction`: the quick fixes of the diagnostics in range
//! (with a `miau.select` command that selects a fix's placeholder, for
//! clients that can show a document), and "Record solution" for levels whose
//! last check found a route the level doesn't record.

use super::Backend;
use super::check::level_key;
use super::convert::{Encoding, lsp_diagnostic, lsp_position, lsp_range, offset_of};
use super::work::{off_thread, stop};
use crate::diag::Diagnostic;
use crate::ide::{self, Analysis};
use crate::span::Span;
use serde_json::json;
use std::collections::HashMap;
use std::sync::atomic::Ordering;
use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, CodeActionParams, CodeActionResponse, Command,
    Position, Range, TextEdit, Uri, WorkspaceEdit,
};

/// `textDocument/codeAction`, on the blocking pool and cancellable.
pub(super) async fn code_action(
    server: &Backend,
    params: CodeActionParams,
) -> Result<Option<CodeActionResponse>> {
    let uri = params.text_document.uri;
    let Some(a) = server.analysis(&uri).await else {
        return Ok(None);
    };
    let enc = server.enc();
    let docs = server.docs_url();
    let select = server.show_document.load(Ordering::Relaxed);
    let start = offset_of(&a, params.range.start, enc);
    let end = offset_of(&a, params.range.end, enc).max(start);
    let range = Span::new(start, end);
    let routes = routes_to_record(server, &uri, &a, range);
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
        for (id, route, at_least) in routes {
            let Some(rec) = ide::record_action(&a, &id, &route, at_least) else {
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

/// "Record solution": for each level the range touches whose last
/// check (of this very text) found a route the level doesn't record,
/// unless a warning changes how the level plays (the route would
/// record that warning's effect; `miauc check --fix` waits too).
fn routes_to_record(
    server: &Backend,
    uri: &Uri,
    a: &Analysis,
    range: Span,
) -> Vec<(String, String, Option<usize>)> {
    let caused = crate::diag::levels_with_causes(a.diagnostics());
    let st = server.lock();
    st.docs
        .get(uri.as_str())
        .map(|doc| {
            doc.stage4
                .iter()
                .filter(|(id, _)| !caused.contains(id.as_str()))
                .filter_map(|(id, s4)| {
                    let i = a.level_index(id)?;
                    let whole = a.ast_levels().get(i)?.block.whole();
                    let (key, _) = level_key(a, i)?;
                    (key == s4.key && whole.start <= range.end && range.start <= whole.end)
                        .then(|| Some((id.clone(), s4.route.clone()?, s4.at_least)))?
                })
                .collect()
        })
        .unwrap_or_default()
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

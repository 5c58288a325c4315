//! `textDocument/formatting`: the canonical formatter's edits ([`crate::fmt`]
//! through [`crate::ide::format`]).

use super::Backend;
use super::convert::lsp_range;
use super::work::off_thread;
use crate::ide;
use std::sync::atomic::Ordering;
use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{DocumentFormattingParams, TextEdit};

/// `textDocument/formatting`, on the blocking pool; a document that doesn't
/// parse gets no edits.
pub(super) async fn formatting(
    server: &Backend,
    params: DocumentFormattingParams,
) -> Result<Option<Vec<TextEdit>>> {
    let Some(a) = server.analysis(&params.text_document.uri).await else {
        return Ok(None);
    };
    let enc = server.enc();
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

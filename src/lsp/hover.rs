//! `textDocument/hover`: the core's hover in Markdown, with the last check
//! summary of each level (kept by `check`) for hovers on level headers.

use super::Backend;
use super::convert::{lsp_range, offset_of};
use super::work::off_thread;
use crate::ide;
use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{Hover, HoverContents, HoverParams, MarkupContent, MarkupKind};

/// `textDocument/hover`, on the blocking pool.
pub(super) async fn hover(server: &Backend, params: HoverParams) -> Result<Option<Hover>> {
    let pos = params.text_document_position_params;
    let Some(a) = server.analysis(&pos.text_document.uri).await else {
        return Ok(None);
    };
    let checks = server
        .lock()
        .docs
        .get(pos.text_document.uri.as_str())
        .map(|d| d.checks.clone())
        .unwrap_or_default();
    let enc = server.enc();
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

//! `textDocument/inlayHint`: the rules each board forms at reset, shown
//! beside the board.

use super::Backend;
use super::convert::lsp_position;
use super::work::off_thread;
use crate::ide;
use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{InlayHint, InlayHintLabel, InlayHintParams, InlayHintTooltip};

/// `textDocument/inlayHint`, on the blocking pool.
pub(super) async fn inlay_hint(
    server: &Backend,
    params: InlayHintParams,
) -> Result<Option<Vec<InlayHint>>> {
    let Some(a) = server.analysis(&params.text_document.uri).await else {
        return Ok(None);
    };
    let enc = server.enc();
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

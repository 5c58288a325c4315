//! `textDocument/completion`: the core's completions, with each kind mapped
//! to the protocol's item kinds.

use super::Backend;
use super::convert::offset_of;
use super::work::off_thread;
use crate::ide;
use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{
    CompletionItem, CompletionItemKind, CompletionParams, CompletionResponse,
};

/// `textDocument/completion`, on the blocking pool.
pub(super) async fn completion(
    server: &Backend,
    params: CompletionParams,
) -> Result<Option<CompletionResponse>> {
    let pos = params.text_document_position;
    let Some(a) = server.analysis(&pos.text_document.uri).await else {
        return Ok(None);
    };
    let enc = server.enc();
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

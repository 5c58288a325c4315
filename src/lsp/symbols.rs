//! The document's shape: `textDocument/documentSymbol` (the outline: pack,
//! blocks, levels, keys, nouns, properties) and `textDocument/foldingRange`.

use super::Backend;
use super::convert::{Encoding, lsp_position, lsp_range};
use super::work::off_thread;
use crate::ide::{self, Analysis};
use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{
    DocumentSymbol, DocumentSymbolParams, DocumentSymbolResponse, FoldingRange, FoldingRangeKind,
    FoldingRangeParams, SymbolKind,
};

/// `textDocument/documentSymbol`, nested, on the blocking pool.
pub(super) async fn document_symbol(
    server: &Backend,
    params: DocumentSymbolParams,
) -> Result<Option<DocumentSymbolResponse>> {
    let Some(a) = server.analysis(&params.text_document.uri).await else {
        return Ok(None);
    };
    let enc = server.enc();
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

/// `textDocument/foldingRange`: the core's ranges by whole lines, comments
/// folded as comments.
pub(super) async fn folding_range(
    server: &Backend,
    params: FoldingRangeParams,
) -> Result<Option<Vec<FoldingRange>>> {
    let Some(a) = server.analysis(&params.text_document.uri).await else {
        return Ok(None);
    };
    let enc = server.enc();
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

//! Going from a name to its other uses: `textDocument/definition`,
//! `textDocument/references`, `textDocument/prepareRename` and
//! `textDocument/rename`, all within one document.

use super::Backend;
use super::convert::{self, lsp_range, offset_of};
use super::work::off_thread;
use crate::ide;
use std::collections::HashMap;
use tower_lsp_server::jsonrpc::{Error, Result};
use tower_lsp_server::ls_types::{
    GotoDefinitionParams, GotoDefinitionResponse, Location, PrepareRenameResponse, ReferenceParams,
    RenameParams, TextDocumentPositionParams, TextEdit, WorkspaceEdit,
};

/// `textDocument/definition`.
pub(super) async fn goto_definition(
    server: &Backend,
    params: GotoDefinitionParams,
) -> Result<Option<GotoDefinitionResponse>> {
    let pos = params.text_document_position_params;
    let uri = pos.text_document.uri;
    let Some(a) = server.analysis(&uri).await else {
        return Ok(None);
    };
    let enc = server.enc();
    let spans = ide::definition(&a, offset_of(&a, pos.position, enc));
    if spans.is_empty() {
        return Ok(None);
    }
    Ok(Some(GotoDefinitionResponse::Array(convert::locations(
        &a, &uri, spans, enc,
    ))))
}

/// `textDocument/references`, on the blocking pool (a name may be used in
/// every cell of every board).
pub(super) async fn references(
    server: &Backend,
    params: ReferenceParams,
) -> Result<Option<Vec<Location>>> {
    let pos = params.text_document_position;
    let uri = pos.text_document.uri;
    let Some(a) = server.analysis(&uri).await else {
        return Ok(None);
    };
    let enc = server.enc();
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

/// `textDocument/prepareRename`: the name under the cursor, if it can be renamed.
pub(super) async fn prepare_rename(
    server: &Backend,
    params: TextDocumentPositionParams,
) -> Result<Option<PrepareRenameResponse>> {
    let Some(a) = server.analysis(&params.text_document.uri).await else {
        return Ok(None);
    };
    let enc = server.enc();
    Ok(ide::rename_range(&a, offset_of(&a, params.position, enc))
        .map(|s| PrepareRenameResponse::Range(lsp_range(&a, s, enc))))
}

/// `textDocument/rename`: every use renamed, or an error saying why not.
pub(super) async fn rename(
    server: &Backend,
    params: RenameParams,
) -> Result<Option<WorkspaceEdit>> {
    let pos = params.text_document_position;
    let uri = pos.text_document.uri;
    let Some(a) = server.analysis(&uri).await else {
        return Ok(None);
    };
    let enc = server.enc();
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

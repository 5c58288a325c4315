//! `textDocument/codeLens`: the commands above each level header (check,
//! replay), which run through `workspace/executeCommand` (`commands`).

use super::Backend;
use super::convert::lsp_range;
use super::work::off_thread;
use crate::ide;
use serde_json::json;
use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{CodeLens, CodeLensParams, Command};

/// `textDocument/codeLens`, on the blocking pool.
pub(super) async fn code_lens(
    server: &Backend,
    params: CodeLensParams,
) -> Result<Option<Vec<CodeLens>>> {
    let uri = params.text_document.uri;
    let Some(a) = server.analysis(&uri).await else {
        return Ok(None);
    };
    let enc = server.enc();
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

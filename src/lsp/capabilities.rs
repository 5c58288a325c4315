//! The `initialize` handshake: what the client offers (position encodings,
//! progress, `window/showDocument`, where the diagnostics' docs are) and
//! what the server offers in return.
//!
//! A new request's capability goes into [`capabilities`], next to the line
//! in `mod.rs` that dispatches it.

use super::Backend;
use super::commands::COMMANDS;
use super::semantic_tokens::{TOKEN_MODIFIERS, TOKEN_TYPES};
use serde_json::Value;
use std::sync::atomic::Ordering;
use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::*;

/// `initialize`: note what the client supports, and answer with the server's capabilities.
pub(super) fn initialize(server: &Backend, params: InitializeParams) -> Result<InitializeResult> {
    let offers_utf8 = params
        .capabilities
        .general
        .as_ref()
        .and_then(|g| g.position_encodings.as_ref())
        .is_some_and(|e| e.contains(&PositionEncodingKind::UTF8));
    server.utf8.store(offers_utf8, Ordering::Relaxed);
    let progress = params
        .capabilities
        .window
        .as_ref()
        .and_then(|w| w.work_done_progress)
        .unwrap_or(false);
    server.client_progress.store(progress, Ordering::Relaxed);
    let show = params
        .capabilities
        .window
        .as_ref()
        .and_then(|w| w.show_document.as_ref())
        .is_some_and(|s| s.support);
    server.show_document.store(show, Ordering::Relaxed);
    // Diagnostics link to their page: the client's `diagnosticsDocs`
    // option, else `docs/diagnostics.md` in a workspace folder that has one.
    let option = params
        .initialization_options
        .as_ref()
        .and_then(|o| o.get("diagnosticsDocs"))
        .and_then(Value::as_str)
        .map(str::to_string);
    let found = params.workspace_folders.iter().flatten().find_map(|f| {
        let path = f.uri.to_file_path()?.join("docs").join("diagnostics.md");
        path.is_file()
            .then(|| Uri::from_file_path(&path))
            .flatten()
            .map(|u| u.as_str().to_string())
    });
    *server.docs.lock().unwrap_or_else(|e| e.into_inner()) = option.or(found);
    if let Some(f) = params.workspace_folders {
        server.lock().folders = f;
    }
    Ok(InitializeResult {
        capabilities: capabilities(offers_utf8),
        server_info: Some(ServerInfo {
            name: "miauc".into(),
            version: Some(env!("CARGO_PKG_VERSION").into()),
        }),
        offset_encoding: None,
    })
}

/// What the server offers: every request `mod.rs` dispatches.
fn capabilities(utf8: bool) -> ServerCapabilities {
    ServerCapabilities {
        position_encoding: Some(if utf8 {
            PositionEncodingKind::UTF8
        } else {
            PositionEncodingKind::UTF16
        }),
        text_document_sync: Some(TextDocumentSyncCapability::Options(
            TextDocumentSyncOptions {
                open_close: Some(true),
                change: Some(TextDocumentSyncKind::FULL),
                save: Some(TextDocumentSyncSaveOptions::Supported(true)),
                ..Default::default()
            },
        )),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        rename_provider: Some(OneOf::Right(RenameOptions {
            prepare_provider: Some(true),
            work_done_progress_options: Default::default(),
        })),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(vec![" ".into(), "+".into(), "\"".into()]),
            ..Default::default()
        }),
        document_symbol_provider: Some(OneOf::Left(true)),
        folding_range_provider: Some(FoldingRangeProviderCapability::Simple(true)),
        semantic_tokens_provider: Some(SemanticTokensServerCapabilities::SemanticTokensOptions(
            SemanticTokensOptions {
                legend: SemanticTokensLegend {
                    token_types: TOKEN_TYPES.to_vec(),
                    token_modifiers: TOKEN_MODIFIERS.to_vec(),
                },
                full: Some(SemanticTokensFullOptions::Bool(true)),
                range: None,
                work_done_progress_options: Default::default(),
            },
        )),
        document_formatting_provider: Some(OneOf::Left(true)),
        code_action_provider: Some(CodeActionProviderCapability::Simple(true)),
        inlay_hint_provider: Some(OneOf::Left(true)),
        code_lens_provider: Some(CodeLensOptions {
            resolve_provider: Some(false),
        }),
        execute_command_provider: Some(ExecuteCommandOptions {
            commands: COMMANDS.iter().map(|c| c.to_string()).collect(),
            work_done_progress_options: WorkDoneProgressOptions {
                work_done_progress: Some(true),
            },
        }),
        workspace: Some(WorkspaceServerCapabilities {
            workspace_folders: Some(WorkspaceFoldersServerCapabilities {
                supported: Some(true),
                change_notifications: Some(OneOf::Left(true)),
            }),
            file_operations: None,
        }),
        ..Default::default()
    }
}

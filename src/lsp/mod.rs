//! `miauc lsp`: the language server shell. The only module that knows LSP types.
//!
//! It keeps the open documents, runs the core's analysis ([`crate::ide`]) after
//! every change (debounced, latest edit wins, at most one analysis per document
//! at a time) and converts the core's plain data (byte spans, diagnostics, IDE
//! answers) to protocol types at the edge. Checks (stage 4) run in background
//! tasks with `$/progress` and cancellation; their diagnostics are kept per
//! level and withdrawn as soon as that level's text changes.
//!
//! This module holds the state every handler shares ([`Backend`]) and the
//! dispatch: the [`LanguageServer`] impl, one line per method, each handing
//! its request to the module that answers it. A new request gets a file of
//! its own beside the others (its handler takes the [`Backend`] and the
//! request's parameters), a line here, and its capability in
//! `capabilities.rs`.
//!
//! - `documents`: open documents, versions, the debounced analysis, publishing;
//! - `check`: stage 4 in the background (progress, cancellation, check on save)
//!   and the per-level findings it keeps;
//! - one module per request family: `hover`, `completion`, `code_action`,
//!   `formatting`, `navigation` (definition, references, rename), `symbols`
//!   (outline, folding), `semantic_tokens`, `inlay_hint`, `code_lens`,
//!   `commands` (`workspace/executeCommand`), `preview` (`miau/level`,
//!   `miau/step`);
//! - `capabilities`: the `initialize` handshake, what each side offers;
//! - `workspace`: workspace folders and the scan of their `.miau` files;
//! - `work`: running a request's work on the blocking pool with a cancel flag;
//! - `convert`: byte offsets and diagnostics to protocol types;
//! - `transport`: standard input and output, and the frame filter between
//!   standard input and the protocol layer.

mod capabilities;
mod check;
mod code_action;
mod code_lens;
mod commands;
mod completion;
mod convert;
mod documents;
mod formatting;
mod hover;
mod inlay_hint;
mod navigation;
mod preview;
mod semantic_tokens;
mod symbols;
mod transport;
mod work;
mod workspace;

pub use commands::COMMANDS;
pub use documents::MAX_DOCUMENT_BYTES;
pub use transport::{filter_frames, run_stdio};

use convert::Encoding;
use documents::Document;
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::*;
use tower_lsp_server::{Client, LanguageServer, LspService};

#[derive(Default)]
struct State {
    docs: BTreeMap<String, Document>,
    folders: Vec<WorkspaceFolder>,
    /// Cancellation flags of running checks, by progress token.
    cancels: HashMap<String, Arc<AtomicBool>>,
    /// The cancellation flag of each document's pending or running check on
    /// save: a newer save cancels it, so a burst of saves runs one check.
    save_checks: HashMap<String, Arc<AtomicBool>>,
}

/// The server state shared by all requests and background tasks.
pub struct Backend {
    client: Client,
    state: Mutex<State>,
    seq: AtomicU64,
    utf8: AtomicBool,
    client_progress: AtomicBool,
    /// The client selects a range on `window/showDocument` (the "Allow"
    /// fix puts the cursor on its reason placeholder that way).
    show_document: AtomicBool,
    /// Where `docs/diagnostics.md` is, for links from diagnostics.
    docs: Mutex<Option<String>>,
}

impl Backend {
    fn new(client: Client) -> Self {
        Backend {
            client,
            state: Mutex::new(State::default()),
            seq: AtomicU64::new(0),
            utf8: AtomicBool::new(false),
            client_progress: AtomicBool::new(false),
            show_document: AtomicBool::new(false),
            docs: Mutex::new(None),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic elsewhere must not wedge every later request.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn docs_url(&self) -> Option<String> {
        self.docs.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    fn enc(&self) -> Encoding {
        if self.utf8.load(Ordering::Relaxed) {
            Encoding::Utf8
        } else {
            Encoding::Utf16
        }
    }
}

/// The protocol handlers over a shared [`Backend`].
pub struct MiauServer(Arc<Backend>);

impl MiauServer {
    /// `window/workDoneProgress/cancel`: stop the check running under that token.
    async fn cancel_progress(&self, params: WorkDoneProgressCancelParams) {
        check::cancel_progress(&self.0, params);
    }

    /// `miau/level` `{uri, level, moves?}`: the preview of a level after
    /// `moves` (default none), see [`crate::ide::preview`].
    async fn preview_level(&self, params: Value) -> Result<Value> {
        preview::preview_request(&self.0, params, false).await
    }

    /// `miau/step` `{uri, level, route, action}`: the preview after `route`
    /// and one more action (`U D L R W`, `undo`, `restart`).
    async fn preview_step(&self, params: Value) -> Result<Value> {
        preview::preview_request(&self.0, params, true).await
    }
}

impl LanguageServer for MiauServer {
    async fn initialize(&self, params: InitializeParams) -> Result<InitializeResult> {
        capabilities::initialize(&self.0, params)
    }

    async fn initialized(&self, _: InitializedParams) {
        workspace::initialized(&self.0);
    }

    async fn shutdown(&self) -> Result<()> {
        check::cancel_all(&self.0);
        Ok(())
    }

    async fn did_change_workspace_folders(&self, params: DidChangeWorkspaceFoldersParams) {
        workspace::did_change_folders(&self.0, params);
    }

    async fn did_open(&self, params: DidOpenTextDocumentParams) {
        documents::did_open(&self.0, params);
    }

    async fn did_change(&self, params: DidChangeTextDocumentParams) {
        documents::did_change(&self.0, params);
    }

    async fn did_save(&self, params: DidSaveTextDocumentParams) {
        check::did_save(&self.0, params);
    }

    async fn did_close(&self, params: DidCloseTextDocumentParams) {
        documents::did_close(&self.0, params).await;
    }

    async fn execute_command(&self, params: ExecuteCommandParams) -> Result<Option<LSPAny>> {
        commands::execute_command(&self.0, params).await
    }

    async fn formatting(&self, params: DocumentFormattingParams) -> Result<Option<Vec<TextEdit>>> {
        formatting::formatting(&self.0, params).await
    }

    async fn code_action(&self, params: CodeActionParams) -> Result<Option<CodeActionResponse>> {
        code_action::code_action(&self.0, params).await
    }

    async fn hover(&self, params: HoverParams) -> Result<Option<Hover>> {
        hover::hover(&self.0, params).await
    }

    async fn goto_definition(
        &self,
        params: GotoDefinitionParams,
    ) -> Result<Option<GotoDefinitionResponse>> {
        navigation::goto_definition(&self.0, params).await
    }

    async fn references(&self, params: ReferenceParams) -> Result<Option<Vec<Location>>> {
        navigation::references(&self.0, params).await
    }

    async fn prepare_rename(
        &self,
        params: TextDocumentPositionParams,
    ) -> Result<Option<PrepareRenameResponse>> {
        navigation::prepare_rename(&self.0, params).await
    }

    async fn rename(&self, params: RenameParams) -> Result<Option<WorkspaceEdit>> {
        navigation::rename(&self.0, params).await
    }

    async fn completion(&self, params: CompletionParams) -> Result<Option<CompletionResponse>> {
        completion::completion(&self.0, params).await
    }

    async fn document_symbol(
        &self,
        params: DocumentSymbolParams,
    ) -> Result<Option<DocumentSymbolResponse>> {
        symbols::document_symbol(&self.0, params).await
    }

    async fn folding_range(&self, params: FoldingRangeParams) -> Result<Option<Vec<FoldingRange>>> {
        symbols::folding_range(&self.0, params).await
    }

    async fn semantic_tokens_full(
        &self,
        params: SemanticTokensParams,
    ) -> Result<Option<SemanticTokensResult>> {
        semantic_tokens::semantic_tokens_full(&self.0, params).await
    }

    async fn inlay_hint(&self, params: InlayHintParams) -> Result<Option<Vec<InlayHint>>> {
        inlay_hint::inlay_hint(&self.0, params).await
    }

    async fn code_lens(&self, params: CodeLensParams) -> Result<Option<Vec<CodeLens>>> {
        code_lens::code_lens(&self.0, params).await
    }
}

/// Build the service, for in-process tests and for [`run_stdio`].
pub fn service() -> (LspService<MiauServer>, tower_lsp_server::ClientSocket) {
    LspService::build(|client| MiauServer(Arc::new(Backend::new(client))))
        .custom_method(
            "window/workDoneProgress/cancel",
            MiauServer::cancel_progress,
        )
        .custom_method("miau/level", MiauServer::preview_level)
        .custom_method("miau/step", MiauServer::preview_step)
        .finish()
}

//! `workspace/executeCommand`: the commands of code lenses, code actions and
//! editor extensions ([`COMMANDS`]), one function each.
//!
//! The checks themselves run in `check`; this module reads the arguments,
//! which clients send either as `[uri, level]` or as `[{uri, level}]`.

use super::Backend;
use super::check::cancel_all;
use super::work::CancelOnDrop;
use crate::ide;
use serde_json::Value;
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use tower_lsp_server::jsonrpc::{Error, Result};
use tower_lsp_server::ls_types::{
    ExecuteCommandParams, LSPAny, MessageType, ProgressToken, Range, ShowDocumentParams, Uri,
};

/// The commands the server executes.
pub const COMMANDS: &[&str] = &[
    "miau.checkLevel",
    "miau.checkPack",
    "miau.replaySolution",
    "miau.cancelCheck",
    "miau.select",
];

/// How long `miau.select` waits for the client to show the document.
const SHOW_DOCUMENT_TIMEOUT: Duration = Duration::from_secs(2);

/// `workspace/executeCommand`: run one of [`COMMANDS`].
pub(super) async fn execute_command(
    server: &Arc<Backend>,
    params: ExecuteCommandParams,
) -> Result<Option<LSPAny>> {
    let args = params.arguments;
    match params.command.as_str() {
        "miau.checkLevel" | "miau.checkPack" => {
            let token = params.work_done_progress_params.work_done_token;
            check(server, &params.command, &args, token).await
        }
        "miau.replaySolution" => replay_solution(server, &args).await,
        "miau.select" => select(server, &args).await,
        "miau.cancelCheck" => {
            cancel_all(server);
            Ok(None)
        }
        other => Err(Error::invalid_params(format!("unknown command {other}"))),
    }
}

/// `miau.checkLevel` `[uri, level]` and `miau.checkPack` `[uri]`: check in
/// the background, with progress on the client's token or one of ours.
async fn check(
    server: &Arc<Backend>,
    command: &str,
    args: &[Value],
    token: Option<ProgressToken>,
) -> Result<Option<LSPAny>> {
    let uri = uri_arg(args).ok_or_else(|| Error::invalid_params("expected a document URI"))?;
    let only = if command == "miau.checkLevel" {
        Some(level_arg(args).ok_or_else(|| Error::invalid_params("expected a level id"))?)
    } else {
        None
    };
    let token = match token {
        Some(t) => Some(t),
        None => server.new_token().await,
    };
    let cancel = Arc::new(AtomicBool::new(false));
    let guard = CancelOnDrop(Arc::clone(&cancel));
    let this = Arc::clone(server);
    // The check runs as its own task: a cancelled request drops
    // `guard`, which stops the task at the next level.
    let task = tokio::spawn(async move { this.check(uri, only, token, cancel).await });
    let out = task.await.unwrap_or(Value::Null);
    drop(guard);
    Ok(Some(out))
}

/// `miau.replaySolution` `[uri, level]`: the level's recorded solution
/// replayed turn by turn, as text (also logged to the client).
async fn replay_solution(server: &Backend, args: &[Value]) -> Result<Option<LSPAny>> {
    let uri = uri_arg(args).ok_or_else(|| Error::invalid_params("expected a document URI"))?;
    let id = level_arg(args).ok_or_else(|| Error::invalid_params("expected a level id"))?;
    let Some(a) = server.analysis(&uri).await else {
        return Ok(None);
    };
    let text = tokio::task::spawn_blocking(move || ide::replay_level(&a, &id))
        .await
        .ok()
        .flatten();
    if let Some(t) = &text {
        server.client.log_message(MessageType::INFO, t).await;
    }
    Ok(text.map(Value::String))
}

/// `miau.select` `[uri, range]`: after a fix with a placeholder, select it,
/// so typing replaces it.
async fn select(server: &Backend, args: &[Value]) -> Result<Option<LSPAny>> {
    let uri = uri_arg(args).ok_or_else(|| Error::invalid_params("expected a document URI"))?;
    let range: Range = args
        .get(1)
        .cloned()
        .and_then(|v| serde_json::from_value(v).ok())
        .ok_or_else(|| Error::invalid_params("expected a range"))?;
    // Only a client that declared `window/showDocument` is asked,
    // and one that never answers holds the command up for at most
    // SHOW_DOCUMENT_TIMEOUT, as with progress tokens.
    if !server.show_document.load(Ordering::Relaxed) {
        return Ok(None);
    }
    let shown = server.client.show_document(ShowDocumentParams {
        uri,
        external: None,
        take_focus: Some(true),
        selection: Some(range),
    });
    let _ = tokio::time::timeout(SHOW_DOCUMENT_TIMEOUT, shown).await;
    Ok(None)
}

fn uri_arg(args: &[Value]) -> Option<Uri> {
    let s = match args.first()? {
        Value::String(s) => s.clone(),
        Value::Object(m) => m.get("uri")?.as_str()?.to_string(),
        _ => return None,
    };
    Uri::from_str(&s).ok()
}

fn level_arg(args: &[Value]) -> Option<String> {
    match (args.first(), args.get(1)) {
        (_, Some(Value::String(s))) => Some(s.clone()),
        (Some(Value::Object(m)), _) => m.get("level")?.as_str().map(str::to_string),
        _ => None,
    }
}

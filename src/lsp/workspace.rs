//! Workspace folders, and the scan of their `.miau` files when the server
//! starts, so problems show before their files are opened.
//!
//! The scan finds and reads files only through [`crate::files`], the rules
//! the command line follows too (each real directory walked once, regular
//! files only, their size checked before reading).

use super::Backend;
use super::convert::lsp_diagnostic;
use super::documents::MAX_DOCUMENT_BYTES;
use crate::ide::Analysis;
use std::sync::Arc;
use tower_lsp_server::ls_types::{DidChangeWorkspaceFoldersParams, Uri};

/// At most this many `.miau` files of the workspace folders are analysed when the server starts.
const MAX_WORKSPACE_FILES: usize = 256;

/// `initialized`: scan the workspace folders in the background.
pub(super) fn initialized(server: &Arc<Backend>) {
    let this = Arc::clone(server);
    tokio::spawn(async move { this.scan_folders().await });
}

/// `workspace/didChangeWorkspaceFolders`: keep the list of folders current.
pub(super) fn did_change_folders(server: &Backend, params: DidChangeWorkspaceFoldersParams) {
    let mut st = server.lock();
    st.folders
        .retain(|f| !params.event.removed.iter().any(|r| r.uri == f.uri));
    st.folders.extend(params.event.added);
}

impl Backend {
    /// Publish diagnostics for the `.miau` files of the workspace folders that
    /// aren't open, so problems show before their files are.
    async fn scan_folders(&self) {
        let folders: Vec<std::path::PathBuf> = self
            .lock()
            .folders
            .iter()
            .filter_map(|f| f.uri.to_file_path().map(|p| p.into_owned()))
            .collect();
        let docs = self.docs_url();
        // The command line's file-system rules: each real directory once (no
        // exponential fans of links), regular files only, sizes checked
        // before reading.
        let files = tokio::task::spawn_blocking(move || {
            crate::files::workspace_sources(&folders, &["miau"], MAX_WORKSPACE_FILES)
        })
        .await
        .unwrap_or_default();
        let enc = self.enc();
        for source in files {
            let path = source.path;
            let Some(uri) = Uri::from_file_path(&path) else {
                continue;
            };
            if self.lock().docs.contains_key(uri.as_str()) {
                continue;
            }
            let analysed = tokio::task::spawn_blocking(move || {
                let bytes = crate::files::read_at_most(&path, MAX_DOCUMENT_BYTES as u64).ok()?;
                let (text, _) = crate::compile::decode(&bytes);
                Some(Analysis::new(&text, MAX_DOCUMENT_BYTES))
            })
            .await;
            let Ok(Some(a)) = analysed else { continue };
            // An editor may have opened the file meanwhile; its own analysis wins.
            if self.lock().docs.contains_key(uri.as_str()) {
                continue;
            }
            let diags = a
                .diagnostics()
                .iter()
                .map(|d| lsp_diagnostic(&uri, &a, d, enc, docs.as_deref()))
                .collect();
            self.client.publish_diagnostics(uri, diags, None).await;
        }
    }
}

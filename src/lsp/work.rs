//! A request's work off the task that reads and answers messages.
//!
//! Every heavy request (semantic tokens of a long row, code actions over a
//! whole pack) runs on tokio's blocking pool with a cancellation flag that
//! its loops poll, so one slow answer never holds up another, and a request
//! the client cancelled stops instead of finishing for nobody.

use crate::ide;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use tower_lsp_server::jsonrpc::{Error, Result};

/// Sets the flag when dropped, so that a check whose request was cancelled stops.
pub(super) struct CancelOnDrop(pub(super) Arc<AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

/// Runs a request's work on tokio's blocking pool, never on the task that
/// reads and answers messages: a semantic-tokens request on a 100,000-cell
/// row must not hold up a hover on another document.
///
/// The work gets a cancellation flag and returns `None` when it saw it set.
/// On `$/cancelRequest`, tower-lsp-server answers RequestCancelled (-32800)
/// and drops this future; the drop sets the flag, so the work stops at its
/// next poll instead of finishing for nobody.
pub(super) async fn off_thread<T, F>(work: F) -> Result<T>
where
    T: Send + 'static,
    F: FnOnce(&AtomicBool) -> Option<T> + Send + 'static,
{
    let flag = Arc::new(AtomicBool::new(false));
    let _cancel_on_drop = CancelOnDrop(Arc::clone(&flag));
    match tokio::task::spawn_blocking(move || work(&flag)).await {
        Ok(Some(v)) => Ok(v),
        Ok(None) => Err(Error::request_cancelled()),
        Err(_) => Err(Error::internal_error()),
    }
}

/// Whether the work of a request should stop: polled by the conversion loops
/// every [`ide::CANCEL_POLL`] items.
pub(super) fn stop(n: usize, cancel: &AtomicBool) -> bool {
    n.is_multiple_of(ide::CANCEL_POLL) && cancel.load(Ordering::Relaxed)
}

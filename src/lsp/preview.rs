//! The custom preview requests: `miau/level` `{uri, level, moves?}` (a level
//! after `moves`) and `miau/step` `{uri, level, route, action}` (after
//! `route` and one more action), answered with the picture and the turn's
//! events from [`crate::ide::preview`].

use super::Backend;
use crate::ide;
use serde_json::{Value, json};
use std::str::FromStr;
use tower_lsp_server::jsonrpc::{Error, Result};
use tower_lsp_server::ls_types::Uri;

/// `miau/level` when `step` is false, `miau/step` when it is true.
pub(super) async fn preview_request(server: &Backend, params: Value, step: bool) -> Result<Value> {
    let uri = params
        .get("uri")
        .and_then(Value::as_str)
        .and_then(|s| Uri::from_str(s).ok())
        .ok_or_else(|| Error::invalid_params("expected \"uri\": a document URI"))?;
    let level = params
        .get("level")
        .and_then(Value::as_str)
        .ok_or_else(|| Error::invalid_params("expected \"level\": a level id"))?
        .to_string();
    let route_key = if step { "route" } else { "moves" };
    let route = match params.get(route_key) {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) if s.len() <= ide::MAX_ROUTE => s.clone(),
        Some(_) => {
            return Err(Error::invalid_params(format!(
                "\"{route_key}\" must be a string of U D L R W of at most {} inputs",
                ide::MAX_ROUTE
            )));
        }
    };
    let action = if step {
        let a = params.get("action").and_then(Value::as_str).unwrap_or("");
        Some(ide::parse_action(a).ok_or_else(|| {
            Error::invalid_params("\"action\" must be one of U D L R W undo restart")
        })?)
    } else {
        None
    };
    let Some(a) = server.analysis(&uri).await else {
        return Err(Error::invalid_params(format!(
            "{} is not an open document",
            uri.as_str()
        )));
    };
    let id = level.clone();
    let p = tokio::task::spawn_blocking(move || {
        std::panic::catch_unwind(|| ide::preview(&a, &id, &route, action))
            .ok()
            .flatten()
    })
    .await
    .ok()
    .flatten()
    .ok_or_else(|| Error::invalid_params(format!("the document has no level {level}")))?;
    Ok(json!({
        "uri": uri.as_str(),
        "level": p.level,
        "title": p.title,
        "levels": p.levels,
        "svg": p.svg,
        "turn": p.turn,
        "won": p.won,
        "route": p.route,
        "events": p.events,
        "rules": p.rules,
        "message": p.message,
        "solution": p.solution,
    }))
}

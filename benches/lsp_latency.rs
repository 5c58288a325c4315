//! Latency of the language server: a scripted client opens a 64-level pack
//! and edits one character 200 times; printed are the times from each
//! `didChange` to the `publishDiagnostics` of that version (median, 95th
//! percentile, worst), plus a cold analysis of the whole pack for scale.
//! The same is then measured on a one-level pack (the first level of the
//! bundled Crate Works pack), where the fixed costs of a change show.
//!
//! Run with `cargo bench --bench lsp_latency` (release build).
#![allow(clippy::print_stdout, reason = "a benchmark prints its figures")]

use futures::StreamExt;
use serde_json::{Value, json};
use std::time::{Duration, Instant};
use tokio::sync::mpsc;
use tower::{Service, ServiceExt};
use tower_lsp_server::jsonrpc::Request;

const URI: &str = "file:///bench/sixty-four.miau";

/// A pack of `count` levels: the bundled Crate Works levels, repeated under
/// new ids.
fn pack(count: usize) -> String {
    let src = include_str!("../packs/crate-works.miau");
    let first = src.find("\nlevel ").expect("levels") + 1;
    let (head, rest) = src.split_at(first);
    let mut levels: Vec<&str> = Vec::new();
    let mut starts: Vec<usize> = rest.match_indices("\nlevel ").map(|(i, _)| i + 1).collect();
    starts.insert(0, 0);
    starts.push(rest.len());
    for w in starts.windows(2) {
        levels.push(&rest[w[0]..w[1]]);
    }
    let mut out = head.to_string();
    for i in 0..count {
        let l = levels[i % levels.len()];
        let id_end = l.find(" {").unwrap_or(6);
        out.push_str(&format!("{}-{i}{}", &l[..id_end], &l[id_end..]));
        if !out.ends_with('\n') {
            out.push('\n');
        }
    }
    out
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn main() {
    for count in [64, 1] {
        measure(&pack(count));
    }
}

/// Open `text`, edit it 200 times, print the figures.
fn measure(text: &str) {
    let text = text.to_string();
    let t = Instant::now();
    let a = miau::ide::Analysis::new(&text, usize::MAX);
    let cold = t.elapsed();
    println!(
        "pack: {} levels, {} bytes, {} diagnostics; cold analysis {:.1} ms",
        a.pack().map_or(0, |p| p.levels.len()),
        text.len(),
        a.diagnostics().len(),
        cold.as_secs_f64() * 1e3
    );

    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    rt.block_on(async move {
        let (mut service, socket) = miau::lsp::service();
        let (tx, mut rx) = mpsc::unbounded_channel::<Request>();
        tokio::spawn(async move {
            let mut socket = socket;
            while let Some(r) = socket.next().await {
                let _ = tx.send(r);
            }
        });
        let mut call = async |req: Request| {
            service.ready().await.unwrap().call(req).await.unwrap()
        };
        call(Request::build("initialize").params(json!({ "capabilities": {} })).id(1).finish()).await;
        call(Request::build("initialized").params(json!({})).finish()).await;
        call(
            Request::build("textDocument/didOpen")
                .params(json!({ "textDocument": { "uri": URI, "languageId": "miau", "version": 1, "text": text } }))
                .finish(),
        )
        .await;
        let wait = async |rx: &mut mpsc::UnboundedReceiver<Request>, version: i32| loop {
            let r = rx.recv().await.expect("server alive");
            if r.method() == "textDocument/publishDiagnostics" {
                let (_, _, p) = r.into_parts();
                let p: Value = p.unwrap_or_default();
                if p["version"] == version {
                    return;
                }
            }
        };
        wait(&mut rx, 1).await;

        // Each edit flips one character of a hint in a different level.
        let hints: Vec<usize> = text
            .match_indices("  hint ")
            .filter_map(|(i, _)| text[i..].find('"').map(|q| i + q + 1))
            .collect();
        let mut times = Vec::new();
        let mut cur = text.clone().into_bytes();
        for k in 0..200 {
            let at = hints[k % hints.len()];
            cur[at] = if cur[at] == b'X' { b'Y' } else { b'X' };
            let body = String::from_utf8(cur.clone()).expect("ASCII edit");
            let version = k as i32 + 2;
            let t = Instant::now();
            call(
                Request::build("textDocument/didChange")
                    .params(json!({ "textDocument": { "uri": URI, "version": version }, "contentChanges": [{ "text": body }] }))
                    .finish(),
            )
            .await;
            wait(&mut rx, version).await;
            times.push(t.elapsed());
        }
        times.sort();
        println!(
            "didChange → publishDiagnostics over {} edits: median {:.1} ms, p95 {:.1} ms, max {:.1} ms",
            times.len(),
            percentile(&times, 0.5).as_secs_f64() * 1e3,
            percentile(&times, 0.95).as_secs_f64() * 1e3,
            times.last().map_or(0.0, |d| d.as_secs_f64() * 1e3)
        );
    });
}

//! The bodies of the `cargo fuzz` targets (`fuzz/fuzz_targets/`), in the
//! library so that `cargo test` (`tests/fuzz_corpus.rs`) replays every saved
//! corpus input through exactly the code the fuzzers run. Each takes any
//! bytes; none may panic, hang or allocate without bound.

use crate::compile::{self, SourceKind};
use crate::diag::render::{self, SourceFile};

/// Any bytes through the whole `.miau` front end: decode, parse, lower,
/// validate, analyse, render the diagnostics both ways, write the pack JSON,
/// format.
pub fn compile_miau(data: &[u8]) {
    let (text, mut diags) = compile::decode(data);
    let compiled = compile::analyse(&text, SourceKind::Miau);
    diags.extend(compiled.diagnostics.iter().cloned());
    let file = SourceFile::new("fuzz.miau", &text);
    let _ = render::human(&file, &diags, render::Style::default());
    for d in &diags {
        let _ = render::json_line(&file, d);
    }
    if let Some(pack) = &compiled.pack {
        let _ = crate::json::to_json(pack);
    }
    let _ = crate::fmt::format(&text);
}

/// Any bytes as pack JSON: read, validate, import to `.miau`, and decode as
/// a share string.
pub fn import_json(data: &[u8]) {
    let (text, _) = compile::decode(data);
    let compiled = compile::compile(&text, SourceKind::Json);
    if let Some(pack) = &compiled.pack {
        let _ = crate::import::to_miau(pack);
    }
    let _ = crate::share::decode(&text);
}

/// Any bytes as an open editor document, through every editor feature the
/// language server calls, at every third offset, and each level's check.
pub fn ide_features(data: &[u8]) {
    use crate::ide;
    let (text, _) = compile::decode(data);
    let a = ide::Analysis::new(&text, 1 << 16);
    for off in (0..=text.len() + 1).step_by(3) {
        let _ = ide::hover(&a, off);
        let _ = ide::definition(&a, off);
        let _ = ide::references(&a, off, true);
        let _ = ide::completions(&a, off);
        let _ = ide::rename(&a, off, "zz");
    }
    let _ = ide::document_symbols(&a);
    let _ = ide::folding_ranges(&a);
    let _ = ide::semantic_tokens(&a);
    let _ = ide::inlay_hints(&a);
    let _ = ide::code_lenses(&a);
    let _ = ide::format(&a);
    let _ = ide::code_actions(&a, crate::span::Span::new(0, text.len()));
    let cancel = std::sync::atomic::AtomicBool::new(false);
    for l in a.ast_levels() {
        let _ = ide::check_level(&a, &l.id.text, &cancel);
    }
}

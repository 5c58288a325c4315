//! Any bytes through the whole `.miau` front end: decode, parse, lower,
//! validate, analyse, render the diagnostics, format. Nothing may panic, hang
//! or allocate without bound.
#![no_main]

use libfuzzer_sys::fuzz_target;
use miau::compile::{self, SourceKind};
use miau::diag::render::{self, SourceFile};

fuzz_target!(|data: &[u8]| {
    let (text, mut diags) = compile::decode(data);
    let compiled = compile::analyse(&text, SourceKind::Miau);
    diags.extend(compiled.diagnostics.iter().cloned());
    let file = SourceFile::new("fuzz.miau", &text);
    let _ = render::human(&file, &diags, false);
    for d in &diags {
        let _ = render::json_line(&file, d);
    }
    if let Some(pack) = &compiled.pack {
        let _ = miau::json::to_json(pack);
    }
    let _ = miau::fmt::format(&text);
});

//! Any bytes through the whole `.miau` front end: decode, parse, lower,
//! validate, format. Nothing may panic, hang or allocate without bound.
#![no_main]

use libfuzzer_sys::fuzz_target;
use miau::compile::{self, SourceKind};

fuzz_target!(|data: &[u8]| {
    let (text, _) = compile::decode(data);
    let compiled = compile::compile(&text, SourceKind::Miau);
    if let Some(pack) = &compiled.pack {
        let _ = miau::json::to_json(pack);
    }
    let _ = miau::fmt::format(&text);
});

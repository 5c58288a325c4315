//! Any bytes as pack JSON: read, validate, import to `.miau`, and decode as a
//! share string. Nothing may panic, hang or allocate without bound.
#![no_main]

use libfuzzer_sys::fuzz_target;
use miau::compile::{self, SourceKind};

fuzz_target!(|data: &[u8]| {
    let (text, _) = compile::decode(data);
    let compiled = compile::compile(&text, SourceKind::Json);
    if let Some(pack) = &compiled.pack {
        let _ = miau::import::to_miau(pack);
    }
    let _ = miau::share::decode(&text);
});

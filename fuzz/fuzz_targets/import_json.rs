//! Any bytes as pack JSON: read, validate, import to `.miau`, and decode as a
//! share string. Nothing may panic, hang or allocate without bound.
//!
//! The body is [`miau::fuzz::import_json`], which `tests/fuzz_corpus.rs` also runs
//! over every saved input in `fuzz/corpus/import_json/`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| miau::fuzz::import_json(data));

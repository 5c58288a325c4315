//! Any bytes through the whole `.miau` front end: decode, parse, lower,
//! validate, analyse, render the diagnostics, format. Nothing may panic, hang
//! or allocate without bound.
//!
//! The body is [`miau::fuzz::compile_miau`], which `tests/fuzz_corpus.rs` also runs
//! over every saved input in `fuzz/corpus/compile_miau/`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| miau::fuzz::compile_miau(data));

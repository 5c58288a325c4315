//! Any bytes through the editor features at every offset: the language
//! server calls these on every keystroke, so nothing may panic.
//!
//! The body is [`miau::fuzz::ide_features`], which `tests/fuzz_corpus.rs` also runs
//! over every saved input in `fuzz/corpus/ide_features/`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| miau::fuzz::ide_features(data));

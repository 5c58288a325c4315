//! Any bytes through the editor features at every offset: the language
//! server calls these on every keystroke, so nothing may panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use miau::{compile, ide};

fuzz_target!(|data: &[u8]| {
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
    let _ = ide::code_actions(&a, miau::span::Span::new(0, text.len()));
    let cancel = std::sync::atomic::AtomicBool::new(false);
    for l in a.ast_levels() {
        let _ = ide::check_level(&a, &l.id.text, &cancel);
    }
});

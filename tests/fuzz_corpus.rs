//! Replays every saved fuzz input (`fuzz/corpus/<target>/*`) through the
//! same function its `cargo fuzz` target runs (`miau::fuzz`), so every input
//! that ever found a bug stays a regression test in `cargo test`. A panic
//! fails the test and names the input.

use std::path::{Path, PathBuf};

fn inputs(target: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/corpus")
        .join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    files
}

fn replay(target: &str, run: fn(&[u8])) {
    let files = inputs(target);
    assert!(!files.is_empty(), "fuzz/corpus/{target} holds no inputs");
    for path in files {
        let data = std::fs::read(&path).expect("a corpus file");
        let outcome = std::panic::catch_unwind(|| run(&data));
        assert!(outcome.is_ok(), "{target} panicked on {}", path.display());
    }
}

#[test]
fn compile_miau_corpus() {
    replay("compile_miau", miau::fuzz::compile_miau);
}

#[test]
fn import_json_corpus() {
    replay("import_json", miau::fuzz::import_json);
}

#[test]
fn ide_features_corpus() {
    replay("ide_features", miau::fuzz::ide_features);
}

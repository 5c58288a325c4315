//! Tidy checks: rules of the source tree that a test can see, read from the
//! files themselves.

use std::path::{Path, PathBuf};

/// The `.rs` files under `dir`, sorted, recursively.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            out.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    out
}

/// Whether `word` occurs in `line` as a whole word: not preceded by a
/// letter, digit or `_` (so `eprintln!` is not `println!`), and, when it
/// ends in a letter, not followed by one (so `stdout_lines` is not `stdout`).
fn has_word(line: &str, word: &str) -> bool {
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    line.match_indices(word).any(|(at, _)| {
        let before = line[..at].chars().next_back();
        let after = line[at + word.len()..].chars().next();
        !before.is_some_and(is_ident) && (word.ends_with('!') || !after.is_some_and(is_ident))
    })
}

/// The language server speaks the protocol on standard output, so nothing
/// else may write there: one stray line corrupts the client's stream. Under
/// `src/lsp/`, no `print!`, `println!` or `dbg!` (which prints to stderr,
/// but has no place in the server either), and standard output named only
/// once: the protocol layer's writer in `transport.rs`.
#[test]
fn lsp_never_prints_to_stdout() {
    const FORBIDDEN: &[&str] = &["print!", "println!", "dbg!", "stdout", "Stdout"];
    /// The one writer to standard output: the protocol layer.
    const WRITER: (&str, &str) = ("transport.rs", "tokio::io::stdout()");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lsp");
    let files = rust_files(&root);
    assert!(files.len() > 1, "no sources under {}", root.display());
    let mut found = Vec::new();
    let mut writers = 0;
    for path in &files {
        let text = std::fs::read_to_string(path).expect("source reads");
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        for (n, line) in text.lines().enumerate() {
            // Comments may name standard output; code may not.
            if line.trim_start().starts_with("//") {
                continue;
            }
            if name == WRITER.0 && line.contains(WRITER.1) {
                writers += 1;
                continue;
            }
            if FORBIDDEN.iter().any(|w| has_word(line, w)) {
                found.push(format!("{}:{}: {}", path.display(), n + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "the language server writes to standard output only through the protocol layer \
         (src/lsp/transport.rs); log to stderr (eprintln!) or to the client \
         (Client::log_message) instead:\n{}",
        found.join("\n")
    );
    assert_eq!(
        writers, 1,
        "src/lsp/{} should hand standard output to the protocol layer exactly once ({})",
        WRITER.0, WRITER.1
    );
}

#[test]
fn whole_words_only() {
    assert!(has_word("    println!(\"x\");", "println!"));
    assert!(!has_word("    eprintln!(\"x\");", "println!"));
    assert!(!has_word("    eprint!(\"x\");", "print!"));
    assert!(has_word("let o = std::io::stdout();", "stdout"));
    assert!(!has_word("let stdout_lines = 1;", "stdout"));
    assert!(has_word("x = dbg!(y);", "dbg!"));
}

//! Checks of the source tree that no compiler runs: the helpers of tests,
//! benchmarks and fuzz targets stay out of the library's public API, and
//! the solver's rooms stay small and free of import circles.

use std::path::{Path, PathBuf};

fn read(path: &str) -> String {
    let full = Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{}: {e}", full.display()))
}

/// The line before `decl` in `text`, trimmed: the attribute gating it.
fn attribute_before<'a>(text: &'a str, decl: &str) -> &'a str {
    let lines: Vec<&str> = text.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.trim() == decl)
        .unwrap_or_else(|| panic!("`{decl}` is not declared"));
    at.checked_sub(1).map_or("", |i| lines[i].trim())
}

/// Every `.rs` file under `dir`, in a fixed order.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            out.extend(rust_files(&path));
        } else if path.extension().is_some_and(|x| x == "rs") {
            out.push(path);
        }
    }
    out
}

/// `engine::testkit` and `fuzz` exist only for the library's own tests and
/// with the `testing` feature (which the integration tests, benchmarks and
/// fuzz targets turn on), and no benchmark body is part of the library:
/// `cargo install` builds none of them.
#[test]
fn test_helpers_are_behind_the_testing_feature() {
    assert_eq!(
        attribute_before(&read("src/lib.rs"), "pub mod fuzz;"),
        "#[cfg(feature = \"testing\")]"
    );
    assert_eq!(
        attribute_before(&read("src/engine/mod.rs"), "pub mod testkit;"),
        "#[cfg(any(test, feature = \"testing\"))]"
    );
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    for file in rust_files(&src) {
        let text = std::fs::read_to_string(&file).expect("a source file");
        assert!(
            !text.contains("pub fn bench_"),
            "{} holds a benchmark body: it belongs in benches/",
            file.display()
        );
    }
    let manifest = read("Cargo.toml");
    assert!(
        manifest.contains("miau = { path = \".\", features = [\"testing\"] }"),
        "the tests and benchmarks turn `testing` on through the crate's own dev-dependency"
    );
    assert!(read("fuzz/Cargo.toml").contains("features = [\"testing\"]"));
}

/// No file of the solver or the renderer is over 1,000 lines, and the push
/// search never imports the level module (which builds it), so the two
/// stay out of an import circle.
#[test]
fn solver_and_render_files_are_small_and_pushes_is_below_level() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for dir in ["src/solver", "src/render"] {
        for file in rust_files(&root.join(dir)) {
            let lines = std::fs::read_to_string(&file)
                .expect("a source file")
                .lines()
                .count();
            assert!(lines <= 1000, "{}: {lines} lines", file.display());
        }
    }
    for file in rust_files(&root.join("src/solver/pushes")) {
        let text = std::fs::read_to_string(&file).expect("a source file");
        for line in text.lines().filter(|l| l.trim_start().starts_with("use ")) {
            assert!(
                !line.contains("level"),
                "{} imports the level module: {line}",
                file.display()
            );
        }
    }
}

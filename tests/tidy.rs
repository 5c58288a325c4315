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

/// The crate's root directory.
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A source path relative to the crate root, with `/` separators.
fn relative(path: &Path) -> String {
    let rel = path.strip_prefix(root()).unwrap_or(path);
    rel.to_string_lossy().replace('\\', "/")
}

/// Files compiled only into tests: unit-test modules (this crate names
/// them `tests.rs`, `*_tests.rs`, or puts them under a `tests/` directory)
/// and the test kits.
fn is_test_file(rel: &str) -> bool {
    let name = rel.rsplit('/').next().unwrap_or(rel);
    name.contains("test") || rel.contains("/tests/")
}

/// The lines of a library file that are compiled into the product, numbered
/// from 1: comment lines and everything from the first `#[cfg(test)]` on
/// (this crate keeps its unit tests at the end of a file) left out.
fn product_lines(path: &Path) -> Vec<(usize, String)> {
    let text = std::fs::read_to_string(path).expect("source reads");
    text.lines()
        .enumerate()
        .take_while(|(_, l)| !l.trim_start().starts_with("#[cfg(test)]"))
        .filter(|(_, l)| !l.trim_start().starts_with("//"))
        .map(|(i, l)| (i + 1, l.to_string()))
        .collect()
}

/// The library's files that are part of the product, with their relative paths.
fn product_files() -> Vec<(String, PathBuf)> {
    rust_files(&root().join("src"))
        .into_iter()
        .map(|p| (relative(&p), p))
        .filter(|(rel, _)| !is_test_file(rel) && rel != "src/fuzz.rs")
        .collect()
}

/// The top-level module a source file belongs to (`src/solver/level.rs` →
/// `solver`); `None` for the crate roots.
fn module_of(rel: &str) -> Option<&str> {
    let inner = rel.strip_prefix("src/")?;
    let first = inner.split('/').next()?;
    let name = first.strip_suffix(".rs").unwrap_or(first);
    (name != "lib" && name != "main").then_some(name)
}

/// The shells: the only code that touches the file system, the process,
/// the terminal or the clock.
fn is_shell(module: Option<&str>) -> bool {
    matches!(module, None | Some("cli" | "lsp" | "files"))
}

/// Everything below the shells is plain functions over text and data: it
/// reads no file, clock, environment or terminal and starts no process, so
/// tests call it directly and a result never depends on the machine.
#[test]
fn only_the_shells_touch_the_outside() {
    const OUTSIDE: &[&str] = &[
        "std::fs",
        "std::process",
        "std::env",
        "Instant",
        "SystemTime",
        "stdin",
        "stdout",
        "stderr",
        "print!",
        "println!",
        "eprint!",
        "eprintln!",
    ];
    let mut found = Vec::new();
    for (rel, path) in product_files() {
        if is_shell(module_of(&rel)) {
            continue;
        }
        for (n, line) in product_lines(&path) {
            for word in OUTSIDE {
                if has_word(&line, word) {
                    found.push(format!("{rel}:{n}: `{word}` in {}", line.trim()));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "only cli, lsp and files touch the file system, process, terminal or clock \
         (ARCHITECTURE.md, Invariants); let the shell pass in what is needed:\n{}",
        found.join("\n")
    );
}

/// Protocol types stay in the language server's shell.
#[test]
fn protocol_types_stay_in_the_language_server() {
    let mut found = Vec::new();
    for (rel, path) in product_files() {
        if module_of(&rel) == Some("lsp") {
            continue;
        }
        for (n, line) in product_lines(&path) {
            if has_word(&line, "tower_lsp_server") || has_word(&line, "ls_types") {
                found.push(format!("{rel}:{n}: {}", line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "LSP types appear only under src/lsp/ (ARCHITECTURE.md, Invariants):\n{}",
        found.join("\n")
    );
}

/// The names of the limits `validate::limits` defines.
fn limit_names() -> Vec<String> {
    let text = std::fs::read_to_string(root().join("src/validate/limits.rs")).unwrap();
    text.lines()
        .filter_map(|l| l.trim_start().strip_prefix("pub const "))
        .filter_map(|rest| rest.split(':').next())
        .map(|name| name.trim().to_string())
        .collect()
}

/// A constant's name if `line` declares one (`const X`, `pub const X`,
/// `pub(crate) const X`).
fn declared_const(line: &str) -> Option<&str> {
    let rest = line.trim_start();
    let rest = rest.strip_prefix("pub(crate) ").unwrap_or(rest);
    let rest = rest.strip_prefix("pub(super) ").unwrap_or(rest);
    let rest = rest.strip_prefix("pub ").unwrap_or(rest);
    let rest = rest.strip_prefix("const ")?;
    rest.split(':').next().map(str::trim)
}

/// Each limit is defined once, so stage 2, the engine, the analysis and the
/// solver cannot disagree about it.
#[test]
fn each_limit_is_defined_once() {
    let names = limit_names();
    assert!(
        names.len() > 5,
        "validate/limits.rs lists the limits: {names:?}"
    );
    let mut found = Vec::new();
    for (rel, path) in product_files() {
        if rel == "src/validate/limits.rs" {
            continue;
        }
        for (n, line) in product_lines(&path) {
            if let Some(name) = declared_const(&line)
                && names.iter().any(|l| l == name)
            {
                found.push(format!("{rel}:{n}: {}", line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "a limit of validate::limits is defined again; read it from there \
         (ARCHITECTURE.md, Invariants):\n{}",
        found.join("\n")
    );
}

/// Every module `src/lib.rs` declares.
fn lib_modules() -> Vec<String> {
    std::fs::read_to_string(root().join("src/lib.rs"))
        .unwrap()
        .lines()
        .filter_map(|l| l.trim().strip_prefix("pub mod "))
        .map(|m| m.trim_end_matches(';').trim().to_string())
        .collect()
}

/// The modules `src/lib.rs` declares on floors, in groups: each group is the
/// `pub mod` lines after a comment naming its floor, up to the comment that
/// begins the modules outside the floors.
fn lib_floors() -> Vec<(String, Vec<String>)> {
    let text = std::fs::read_to_string(root().join("src/lib.rs")).unwrap();
    let mut floors: Vec<(String, Vec<String>)> = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with("// Outside the floors") {
            break;
        }
        if let Some(floor) = line.strip_prefix("// Floor: ") {
            floors.push((floor.trim().to_string(), Vec::new()));
        } else if let Some(module) = line.strip_prefix("pub mod ") {
            let module = module.trim_end_matches(';').trim().to_string();
            match floors.last_mut() {
                Some((_, modules)) => modules.push(module),
                None => panic!("src/lib.rs declares `{module}` before naming its floor"),
            }
        }
    }
    floors
}

/// The floors of ARCHITECTURE.md's diagram, top first: each line is the
/// floor's name, then its modules, each perhaps followed by a description
/// in parentheses.
fn diagram_floors() -> Vec<(String, Vec<String>)> {
    let text = std::fs::read_to_string(root().join("ARCHITECTURE.md")).unwrap();
    let start = text.find("```\n").expect("ARCHITECTURE.md has a diagram") + 4;
    let end = start + text[start..].find("```").expect("the diagram ends");
    text[start..end]
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let mut plain = String::new();
            let mut depth = 0;
            for c in line.chars() {
                match c {
                    '(' => depth += 1,
                    ')' => depth -= 1,
                    _ if depth == 0 => plain.push(c),
                    _ => {}
                }
            }
            let mut words = plain.split_whitespace().map(str::to_string);
            let floor = words.next().expect("a floor's name");
            (floor, words.collect())
        })
        .collect()
}

/// The diagram lists every module on its floor, and `src/lib.rs` declares
/// them floor by floor in the same order, so the two never tell different
/// stories.
#[test]
fn the_diagram_and_lib_rs_agree() {
    let sorted = |floors: Vec<(String, Vec<String>)>| -> Vec<(String, Vec<String>)> {
        floors
            .into_iter()
            .map(|(f, mut m)| {
                m.sort();
                (f, m)
            })
            .collect()
    };
    let diagram = sorted(diagram_floors());
    let lib = sorted(lib_floors());
    assert!(diagram.len() > 5, "{diagram:?}");
    assert_eq!(
        diagram, lib,
        "ARCHITECTURE.md's diagram (top floor first) and src/lib.rs's `// Floor:` groups differ"
    );
}

/// Every module of the library has a row in the code map, and every row
/// names a module.
#[test]
fn every_public_module_has_a_code_map_row() {
    let text = std::fs::read_to_string(root().join("ARCHITECTURE.md")).unwrap();
    let start = text
        .find("## Code map")
        .expect("ARCHITECTURE.md has a code map");
    let rows: Vec<String> = text[start..]
        .lines()
        .skip(1)
        .take_while(|l| !l.starts_with("## "))
        .filter_map(|l| l.strip_prefix("| `"))
        .filter_map(|rest| rest.split('`').next())
        .map(str::to_string)
        .collect();
    let modules = lib_modules();
    let missing: Vec<&String> = modules.iter().filter(|m| !rows.contains(m)).collect();
    let stale: Vec<&String> = rows.iter().filter(|r| !modules.contains(r)).collect();
    assert!(
        missing.is_empty() && stale.is_empty(),
        "ARCHITECTURE.md's code map has a row for each module of src/lib.rs and no other; \
         missing: {missing:?}, stale: {stale:?}"
    );
}

/// The top-level modules a line refers to through `crate::`.
fn crate_paths(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (at, _) in line.match_indices("crate::") {
        let rest = &line[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let group = group.split('}').next().unwrap_or("");
            for item in group.split(',') {
                let name: String = item
                    .trim()
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                out.push(name);
            }
        } else {
            out.push(
                rest.chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect(),
            );
        }
    }
    out
}

/// No module imports one on a higher floor: the core never reaches up into
/// the editor or the shells, and the pipeline's order is the diagram's.
#[test]
fn no_module_imports_a_higher_floor() {
    let floors = diagram_floors();
    let floor_of = |module: &str| {
        // The diagram lists the top floor first, so a lower index is higher.
        floors
            .iter()
            .position(|(_, modules)| modules.iter().any(|m| m == module))
            .map(|i| floors.len() - i)
    };
    let mut found = Vec::new();
    for (rel, path) in product_files() {
        let Some(module) = module_of(&rel) else {
            continue;
        };
        let Some(own) = floor_of(module) else {
            found.push(format!("{rel}: `{module}` is on no floor of the diagram"));
            continue;
        };
        for (n, line) in product_lines(&path) {
            for target in crate_paths(&line) {
                if let Some(theirs) = floor_of(&target)
                    && theirs > own
                {
                    found.push(format!(
                        "{rel}:{n}: `{module}` imports `{target}`, a higher floor"
                    ));
                }
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

/// A file of the crate, read.
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
    let src = root().join("src");
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
        manifest.contains("miau = { package = \"miauc\", path = \".\", features = [\"testing\"] }"),
        "the tests and benchmarks turn `testing` on through the crate's own dev-dependency"
    );
    assert!(read("fuzz/Cargo.toml").contains("features = [\"testing\"]"));
}

/// A room a reader can hold: no source file of the library over 1,000
/// lines, and no function over 150 (counted from its `fn` line to the
/// closing brace at the same indentation, as rustfmt lays them out).
#[test]
fn files_and_functions_stay_small() {
    const MAX_FILE_LINES: usize = 1000;
    const MAX_FN_LINES: usize = 150;
    let mut found = Vec::new();
    for path in rust_files(&root().join("src")) {
        let rel = relative(&path);
        let text = std::fs::read_to_string(&path).expect("source reads");
        let lines: Vec<&str> = text.lines().collect();
        if lines.len() > MAX_FILE_LINES {
            found.push(format!("{rel}: {} lines", lines.len()));
        }
        for (i, line) in lines.iter().enumerate() {
            let Some(name) = fn_name(line) else {
                continue;
            };
            if line.trim_end().ends_with(';') {
                continue;
            }
            let indent = &line[..line.len() - line.trim_start().len()];
            let close = format!("{indent}}}");
            if let Some(end) = lines[i + 1..].iter().position(|l| *l == close)
                && end + 2 > MAX_FN_LINES
            {
                found.push(format!("{rel}:{}: fn {name} is {} lines", i + 1, end + 2));
            }
        }
    }
    assert!(
        found.is_empty(),
        "split these into named steps or cohesive files (ARCHITECTURE.md):\n{}",
        found.join("\n")
    );
}

/// The name of the function `line` declares, if it declares one.
fn fn_name(line: &str) -> Option<&str> {
    let mut rest = line.trim_start();
    for prefix in [
        "pub(crate) ",
        "pub(super) ",
        "pub ",
        "const ",
        "async ",
        "unsafe ",
    ] {
        rest = rest.strip_prefix(prefix).unwrap_or(rest);
    }
    let rest = rest.strip_prefix("fn ")?;
    let end = rest.find(|c: char| !(c.is_alphanumeric() || c == '_'))?;
    Some(&rest[..end])
}

/// The module path a library file declares (`src/solver/level/mod.rs` →
/// `["solver", "level"]`, `src/lib.rs` → `[]`).
fn module_path(rel: &str) -> Vec<String> {
    let inner = rel.strip_prefix("src/").unwrap_or(rel);
    let inner = inner.strip_suffix(".rs").unwrap_or(inner);
    let mut parts: Vec<String> = inner.split('/').map(str::to_string).collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

/// The names `rest` starts with: one name, or each first name of a `{…}`
/// group.
fn names_after(rest: &str) -> Vec<String> {
    let ident = |s: &str| -> String {
        s.trim()
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    match rest.strip_prefix('{') {
        Some(group) => group
            .split('}')
            .next()
            .unwrap_or("")
            .split(',')
            .map(ident)
            .collect(),
        None => vec![ident(rest)],
    }
}

/// The absolute paths `line` of the module `own` names through `crate::`,
/// `super::` (as often as written) or `self::`, each ending at the first
/// name after the last `::` (every first name of a `{…}` group).
fn referenced_paths(line: &str, own: &[String]) -> Vec<Vec<String>> {
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut out = Vec::new();
    for root in ["crate::", "super::", "self::"] {
        for (at, _) in line.match_indices(root) {
            let before = line[..at].chars().next_back();
            if before.is_some_and(|c| is_ident(c) || c == ':') {
                continue;
            }
            let mut base: Vec<String> = match root {
                "crate::" => Vec::new(),
                _ => own.to_vec(),
            };
            let mut rest = &line[at..];
            // Walk `name::` segments; what follows the last one is the target.
            while let Some(end) = rest.find("::").filter(|&e| rest[..e].chars().all(is_ident)) {
                match &rest[..end] {
                    "crate" | "self" => {}
                    "super" => {
                        base.pop();
                    }
                    name => base.push(name.to_string()),
                }
                rest = &rest[end + 2..];
            }
            for name in names_after(rest) {
                if !name.is_empty() && name != "self" {
                    let mut path = base.clone();
                    path.push(name);
                    out.push(path);
                }
            }
        }
    }
    out
}

/// Each (importer, imported) pair of sibling modules (children of one
/// module, or top-level modules) where a product file of the first refers
/// to the second.
fn sibling_imports() -> std::collections::BTreeSet<(Vec<String>, Vec<String>)> {
    let mut edges = std::collections::BTreeSet::new();
    for (rel, path) in product_files() {
        let own = module_path(&rel);
        for (_, line) in product_lines(&path) {
            for target in referenced_paths(&line, &own) {
                // The sibling pair: the two paths' children of their deepest
                // common module.
                let common = own.iter().zip(&target).take_while(|(a, b)| a == b).count();
                if common >= own.len() || common >= target.len() {
                    continue;
                }
                edges.insert((own[..=common].to_vec(), target[..=common].to_vec()));
            }
        }
    }
    edges
}

/// No two sibling modules import each other: a circle between two files
/// of one module means neither can be read, changed or tested without the
/// other, so one of them holds what both need and belongs below them.
#[test]
fn no_two_sibling_modules_import_each_other() {
    let edges = sibling_imports();
    let path = |p: &str| p.split("::").map(str::to_string).collect::<Vec<_>>();
    // The reading sees imports at all: through `crate::`, and through `super::`.
    assert!(edges.contains(&(path("ide"), path("compile"))));
    assert!(edges.contains(&(path("validate::level"), path("validate::limits"))));
    let circles: Vec<String> = edges
        .iter()
        .filter(|(a, b)| a < b && edges.contains(&(b.clone(), a.clone())))
        .map(|(a, b)| format!("{} ⇄ {}", a.join("::"), b.join("::")))
        .collect();
    assert!(
        circles.is_empty(),
        "sibling modules that import each other (move what both need into one, below the other):\n{}",
        circles.join("\n")
    );
}

/// The paths a line names, resolved from the module it is in.
#[test]
fn referenced_paths_resolve_crate_super_and_groups() {
    let own: Vec<String> = vec!["analysis".into(), "words".into()];
    let names = |line: &str| -> Vec<String> {
        referenced_paths(line, &own)
            .iter()
            .map(|p| p.join("::"))
            .collect()
    };
    assert_eq!(
        names("use super::{board, reset::engine_reset};"),
        ["analysis::board", "analysis::reset"]
    );
    assert_eq!(
        names("let v = crate::analysis::view::NounSet::of(p);"),
        ["analysis::view::NounSet::of"]
    );
    assert_eq!(
        names("use super::super::diag::Diagnostic;"),
        ["diag::Diagnostic"]
    );
    assert_eq!(names("use self::inner::X;"), ["analysis::words::inner::X"]);
    assert!(names("use std::collections::HashMap; // supercrate::x").is_empty());
}

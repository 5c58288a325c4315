//! The grammar tested through the committed parser, without the tree-sitter
//! CLI: the corpus (`test/corpus/*.txt`, the CLI's format), every `.miau`
//! file and `miau` code block of the repository, the queries compiled against
//! the grammar, and the highlight assertions of `test/highlight/`.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use streaming_iterator::StreamingIterator;
use tree_sitter::{Language, Node, Parser, Point, Query, QueryCursor, Tree};

fn grammar_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn repo_root() -> PathBuf {
    grammar_dir().join("../..").canonicalize().unwrap()
}

fn language() -> Language {
    tree_sitter_miau::LANGUAGE.into()
}

fn parse(text: &str) -> Tree {
    let mut parser = Parser::new();
    parser.set_language(&language()).unwrap();
    parser.parse(text, None).expect("the parser returns a tree")
}

/// The first ERROR or MISSING node, depth first.
fn first_error(node: Node) -> Option<Node> {
    if node.is_error() || node.is_missing() {
        return Some(node);
    }
    if !node.has_error() {
        return None;
    }
    let mut cursor = node.walk();
    node.children(&mut cursor).find_map(first_error)
}

/// The tokens of an S-expression, for comparing without regard to layout.
fn sexp_tokens(s: &str) -> Vec<String> {
    let spaced = s.replace('(', " ( ").replace(')', " ) ");
    spaced.split_whitespace().map(str::to_owned).collect()
}

// ---------------------------------------------------------------------------
// The corpus

/// One test of a corpus file: its name, input and expected tree.
struct CorpusTest {
    name: String,
    input: String,
    expected: String,
}

fn is_rule(line: &str, c: char) -> bool {
    line.len() >= 3 && line.chars().all(|x| x == c)
}

/// Reads a corpus file in the CLI's format: a `===` line, the name, a `===`
/// line, the input, a `---` line, the expected tree.
fn read_corpus(text: &str) -> Vec<CorpusTest> {
    let lines: Vec<&str> = text.split('\n').collect();
    let mut tests = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if !is_rule(lines[i], '=') {
            assert!(
                lines[i].trim().is_empty(),
                "line {}: text outside a test: {:?}",
                i + 1,
                lines[i]
            );
            i += 1;
            continue;
        }
        let name = lines[i + 1].trim().to_owned();
        assert!(
            is_rule(lines[i + 2], '='),
            "test {name:?}: no closing === line"
        );
        let start = i + 3;
        let divider = (start..lines.len())
            .find(|&j| is_rule(lines[j], '-'))
            .unwrap_or_else(|| panic!("test {name:?}: no --- line"));
        let end = (divider + 1..lines.len())
            .find(|&j| is_rule(lines[j], '='))
            .unwrap_or(lines.len());
        // As the CLI reads it: the newline just before the divider is not
        // input (joining the lines leaves it out).
        let input = lines[start..divider].join("\n");
        tests.push(CorpusTest {
            name,
            input,
            expected: lines[divider + 1..end].join("\n"),
        });
        i = end;
    }
    tests
}

fn corpus_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = fs::read_dir(grammar_dir().join("test/corpus"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    files
}

#[test]
fn every_corpus_test_gives_its_tree() {
    let mut failures = Vec::new();
    let mut count = 0;
    for file in corpus_files() {
        let text = fs::read_to_string(&file).unwrap();
        for test in read_corpus(&text) {
            count += 1;
            let actual = parse(&test.input).root_node().to_sexp();
            let expected = sexp_tokens(&test.expected);
            let mut got = sexp_tokens(&actual);
            // Field names are compared only where the expected tree names them.
            if !expected.iter().any(|t| t.ends_with(':')) {
                got.retain(|t| !t.ends_with(':'));
            }
            if got != expected {
                failures.push(format!(
                    "{} / {}:\n  expected {}\n  got      {}",
                    file.file_name().unwrap().to_string_lossy(),
                    test.name,
                    expected.join(" ").replace("( ", "(").replace(" )", ")"),
                    got.join(" ").replace("( ", "(").replace(" )", ")"),
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    // The corpus covers every statement, block and board form: that is dozens.
    assert!(count >= 30, "only {count} corpus tests");
}

#[test]
fn the_corpus_names_every_node_type() {
    // A node type no corpus test shows is a form nobody checked.
    let node_types: serde_json::Value = serde_json::from_str(tree_sitter_miau::NODE_TYPES).unwrap();
    let mut corpus = String::new();
    for file in corpus_files() {
        for test in read_corpus(&fs::read_to_string(&file).unwrap()) {
            corpus.push_str(&test.expected);
            corpus.push('\n');
        }
    }
    let shown = sexp_tokens(&corpus);
    let missing: Vec<&str> = node_types
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["named"] == true)
        .map(|t| t["type"].as_str().unwrap())
        .filter(|ty| !shown.iter().any(|s| s == ty))
        .collect();
    assert!(
        missing.is_empty(),
        "node types no corpus test shows: {missing:?}"
    );
    assert!(
        shown.iter().any(|s| s == "ERROR"),
        "no corpus test recovers from an error"
    );
}

// ---------------------------------------------------------------------------
// Every .miau of the repository

/// Directories that hold no project sources.
const SKIP_DIRS: &[&str] = &[
    "target",
    "node_modules",
    ".git",
    ".venv",
    "corpus",
    "artifacts",
];

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            if !SKIP_DIRS.contains(&name.as_str()) {
                walk(&path, out);
            }
        } else {
            out.push(path);
        }
    }
}

/// Every `.miau` source of the repository, with a name for messages: the
/// files, and each ```miau block of the Markdown documents.
fn repository_sources() -> Vec<(String, String)> {
    let root = repo_root();
    let mut files = Vec::new();
    walk(&root, &mut files);
    let mut sources = Vec::new();
    for path in files {
        let rel = path.strip_prefix(&root).unwrap().display().to_string();
        match path.extension().and_then(|e| e.to_str()) {
            Some("miau") => {
                // Some fixtures are deliberately not UTF-8 (M114).
                if let Ok(text) = fs::read_to_string(&path) {
                    sources.push((rel, text));
                }
            }
            Some("md") => {
                let text = fs::read_to_string(&path).unwrap();
                let mut block: Option<(usize, String)> = None;
                for (n, line) in text.lines().enumerate() {
                    match &mut block {
                        None if line.trim_start() == "```miau" => {
                            block = Some((n + 2, String::new()))
                        }
                        Some((start, body)) if line.trim_start() == "```" => {
                            sources.push((format!("{rel}:{start}"), std::mem::take(body)));
                            block = None;
                        }
                        Some((_, body)) => {
                            body.push_str(line);
                            body.push('\n');
                        }
                        None => {}
                    }
                }
            }
            _ => {}
        }
    }
    sources
}

#[test]
fn every_valid_miau_in_the_repository_parses_without_error_nodes() {
    let mut failures = Vec::new();
    let mut clean = 0;
    let mut packs = 0;
    for (name, text) in repository_sources() {
        let tree = parse(&text);
        // Files with syntax errors (the M1xx fixtures, diagnostics.md's
        // examples) are meant to be broken; the rest must parse cleanly.
        let (_, diagnostics) = miau::syntax::parse(&text);
        if !diagnostics.is_empty() {
            continue;
        }
        clean += 1;
        packs += usize::from(name.starts_with("packs/"));
        if let Some(node) = first_error(tree.root_node()) {
            let p = node.start_position();
            let line = text.lines().nth(p.row).unwrap_or("");
            failures.push(format!(
                "{name}:{}:{}: {} in {line:?}",
                p.row + 1,
                p.column + 1,
                if node.is_missing() {
                    format!("MISSING {}", node.kind())
                } else {
                    "ERROR".to_owned()
                }
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(packs >= 2, "only {packs} bundled packs found");
    assert!(clean >= 20, "only {clean} valid sources found");
}

#[test]
fn the_grammar_knows_every_statement_keyword_of_the_toolchain() {
    let grammar: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(grammar_dir().join("src/grammar.json")).unwrap())
            .unwrap();
    let mut keywords: Vec<&str> = grammar["rules"]["keyword"]["members"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["value"].as_str().unwrap())
        .collect();
    keywords.sort_unstable();
    let mut toolchain: Vec<&str> = miau::syntax::PACK_STMTS
        .iter()
        .chain(miau::syntax::LEVEL_STMTS)
        .copied()
        .collect();
    toolchain.sort_unstable();
    toolchain.dedup();
    assert_eq!(keywords, toolchain);
}

// ---------------------------------------------------------------------------
// Queries

fn query_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = fs::read_dir(grammar_dir().join("queries"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "scm"))
        .collect();
    files.sort();
    files
}

#[test]
fn every_query_compiles_against_the_grammar() {
    let files = query_files();
    let names: Vec<String> = files
        .iter()
        .map(|f| f.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["folds.scm", "highlights.scm"]);
    for file in files {
        let text = fs::read_to_string(&file).unwrap();
        if let Err(e) = Query::new(&language(), &text) {
            panic!(
                "{}:{}:{}: {:?}: {}",
                file.display(),
                e.row + 1,
                e.column + 1,
                e.kind,
                e.message
            );
        }
    }
    // A query that names a node the grammar lacks is rejected.
    assert!(Query::new(&language(), "(no_such_node) @x").is_err());
}

#[test]
fn neovim_ships_the_same_queries() {
    let nvim = repo_root().join("editors/nvim/queries/miau");
    for file in query_files() {
        let name = file.file_name().unwrap();
        let copy = fs::read_to_string(nvim.join(name)).unwrap_or_else(|e| {
            panic!("editors/nvim/queries/miau/{}: {e}", name.to_string_lossy())
        });
        assert_eq!(
            copy,
            fs::read_to_string(&file).unwrap(),
            "editors/nvim/queries/miau/{} differs from queries/ (copy it over)",
            name.to_string_lossy()
        );
    }
}

/// Every capture of `query` over `tree`, by node (start, end byte) to its
/// capture names.
fn captures(query: &Query, tree: &Tree, text: &str) -> BTreeMap<(usize, usize), Vec<String>> {
    let mut cursor = QueryCursor::new();
    let mut all: BTreeMap<(usize, usize), Vec<String>> = BTreeMap::new();
    let mut it = cursor.captures(query, tree.root_node(), text.as_bytes());
    while let Some((m, i)) = it.next() {
        let c = m.captures()[*i];
        let name = query.capture_names()[c.index as usize].to_owned();
        let names = all
            .entry((c.node.start_byte(), c.node.end_byte()))
            .or_default();
        if !names.contains(&name) {
            names.push(name);
        }
    }
    all
}

fn highlights() -> Query {
    Query::new(&language(), tree_sitter_miau::HIGHLIGHTS_QUERY).unwrap()
}

#[test]
fn no_node_gets_two_highlights_and_every_board_word_gets_one() {
    // Editors disagree on which of two patterns capturing one node wins
    // (Neovim: the later; tree-sitter-highlight: the earlier), so the
    // patterns are disjoint and every tile of a board row is highlighted.
    let query = highlights();
    let mut failures = Vec::new();
    for (name, text) in repository_sources() {
        let tree = parse(&text);
        let caps = captures(&query, &tree, &text);
        for ((start, end), names) in &caps {
            if names.len() > 1 {
                failures.push(format!(
                    "{name}: {:?} captured as {names:?}",
                    &text[*start..*end]
                ));
            }
        }
        let mut stack = vec![tree.root_node()];
        while let Some(node) = stack.pop() {
            let mut cursor = node.walk();
            stack.extend(node.children(&mut cursor));
            let in_row = node
                .parent()
                .is_some_and(|p| p.kind() == "board_row" || p.kind() == "stack");
            // A stack is its parts: each gets its own capture.
            if in_row
                && node.is_named()
                && node.kind() != "stack"
                && !caps.contains_key(&(node.start_byte(), node.end_byte()))
            {
                let p = node.start_position();
                failures.push(format!(
                    "{name}:{}:{}: board cell {:?} ({}) has no highlight",
                    p.row + 1,
                    p.column + 1,
                    node.utf8_text(text.as_bytes()).unwrap(),
                    node.kind()
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// An assertion of a highlight test file: the capture expected at a point.
struct Assertion {
    at: Point,
    capture: String,
}

/// Reads the CLI's highlight assertions: in a `//` comment, `^` names the
/// capture at its column on the nearest line above that is not an
/// assertion, `<-` the capture at the comment's own column.
fn read_assertions(text: &str) -> Vec<Assertion> {
    let mut out = Vec::new();
    let mut code_row = None;
    for (row, line) in text.lines().enumerate() {
        let Some(comment) = line.find("//") else {
            code_row = Some(row);
            continue;
        };
        let body = &line[comment + 2..];
        let trimmed = body.trim_start();
        let (column, rest) = if let Some(rest) = trimmed.strip_prefix("<-") {
            (comment, rest)
        } else if trimmed.starts_with('^') {
            (
                comment + 2 + body.find('^').unwrap(),
                trimmed.trim_start_matches('^'),
            )
        } else {
            code_row = Some(row);
            continue;
        };
        let capture = rest
            .split_whitespace()
            .next()
            .expect("an assertion names a capture");
        let target = code_row.expect("an assertion below a line of code");
        out.push(Assertion {
            at: Point::new(target, column),
            capture: capture.to_owned(),
        });
    }
    out
}

#[test]
fn highlight_assertions_hold() {
    let query = highlights();
    let dir = grammar_dir().join("test/highlight");
    let mut count = 0;
    let mut failures = Vec::new();
    let mut entries: Vec<PathBuf> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for file in entries {
        let text = fs::read_to_string(&file).unwrap();
        let tree = parse(&text);
        assert!(
            first_error(tree.root_node()).is_none(),
            "{} has an ERROR node",
            file.display()
        );
        let caps = captures(&query, &tree, &text);
        for a in read_assertions(&text) {
            count += 1;
            // The innermost captured node at the point decides its colour.
            let byte = text
                .lines()
                .take(a.at.row)
                .map(|l| l.len() + 1)
                .sum::<usize>()
                + a.at.column;
            let got = caps
                .iter()
                .filter(|((s, e), _)| *s <= byte && byte < *e)
                .min_by_key(|((s, e), _)| e - s)
                .map(|(_, names)| names.join(","));
            if got.as_deref() != Some(a.capture.as_str()) {
                failures.push(format!(
                    "{}:{}:{}: expected {}, got {}",
                    file.file_name().unwrap().to_string_lossy(),
                    a.at.row + 1,
                    a.at.column + 1,
                    a.capture,
                    got.unwrap_or_else(|| "nothing".to_owned())
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(count >= 20, "only {count} highlight assertions");
}

#[test]
fn folds_cover_every_block() {
    let query = Query::new(&language(), tree_sitter_miau::FOLDS_QUERY).unwrap();
    let text = fs::read_to_string(grammar_dir().join("test/highlight/level.miau")).unwrap();
    let tree = parse(&text);
    let folded: Vec<&str> = captures(&query, &tree, &text)
        .keys()
        .map(|(s, e)| text[*s..*e].lines().next().unwrap().trim())
        .collect();
    for header in ["level jam {", "board {"] {
        assert!(folded.contains(&header), "no fold for {header}: {folded:?}");
    }
}

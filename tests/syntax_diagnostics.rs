//! One fixture per stage 1 code: each holds exactly one mistake, which must give
//! exactly one diagnostic of that code, at the right place, with the catalogue's
//! message. The rendered line is pinned by a snapshot.

use miau::diag::Diagnostic;
use miau::lower::lower;
use miau::span::LineIndex;
use miau::syntax::parse;

/// `file:line:col: severity[CODE name] message`, plus the cells and fixes, so
/// the snapshot pins the span, the cells and the quick fix as well.
fn render(file: &str, text: &str, diags: &[Diagnostic]) -> String {
    let idx = LineIndex::new(text);
    let mut out = String::new();
    for d in diags {
        let lc = idx.line_col(text, d.span.start as usize);
        out.push_str(&format!(
            "{file}:{}:{}: {}[{} {}] {}\n",
            lc.line,
            lc.column,
            d.severity.as_str(),
            d.code(),
            d.name(),
            d.message
        ));
        if let Some(level) = &d.level {
            out.push_str(&format!("  level: {level}\n"));
        }
        for (x, y) in &d.cells {
            out.push_str(&format!("  cell: column {x}, row {y}\n"));
        }
        for f in &d.fixes {
            let edits: Vec<String> = f
                .edits
                .iter()
                .map(|e| {
                    let a = idx.line_col(text, e.span.start as usize);
                    let b = idx.line_col(text, e.span.end as usize);
                    format!(
                        "{}:{}-{}:{} {:?}",
                        a.line, a.column, b.line, b.column, e.new_text
                    )
                })
                .collect();
            out.push_str(&format!("  fix: {}: {}\n", f.title, edits.join("; ")));
        }
    }
    out
}

fn check(name: &str, code: &str) -> String {
    let path = format!(
        "{}/tests/fixtures/syntax/{name}.miau",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).expect("fixture");
    let (file, mut diags) = parse(&text);
    let (_, more) = lower(&file);
    diags.extend(more);
    miau::diag::sort(&mut diags);
    let codes: Vec<&str> = diags.iter().map(|d| d.code()).collect();
    assert_eq!(codes, [code], "{name}: {diags:#?}");
    render(&format!("{name}.miau"), &text, &diags)
}

macro_rules! fixture {
    ($test:ident, $name:literal, $code:literal) => {
        #[test]
        fn $test() {
            insta::assert_snapshot!($name, check($name, $code));
        }
    };
}

fixture!(m101, "M101-unterminated-string", "M101");
fixture!(m102, "M102-single-quoted-text", "M102");
fixture!(m103, "M103-invalid-escape", "M103");
fixture!(m104, "M104-unknown-keyword", "M104");
fixture!(m105, "M105-unclosed-block", "M105");
fixture!(m106, "M106-unexpected-token", "M106");
fixture!(m107, "M107-duplicate-statement", "M107");
fixture!(m108, "M108-ragged-board-row", "M108");
fixture!(m109, "M109-unknown-legend-key", "M109");
fixture!(m110, "M110-legend-key-is-word", "M110");
fixture!(m111, "M111-invalid-legend-value", "M111");
fixture!(m112, "M112-malformed-stack", "M112");
fixture!(m113, "M113-misplaced-fixed-mark", "M113");
fixture!(m114, "M114-stray-character", "M114");
fixture!(m115, "M115-unused-legend-key", "M115");

#[test]
fn the_valid_fixture_has_no_diagnostics() {
    let text = include_str!("fixtures/syntax/valid-crate-works.miau");
    let (file, diags) = parse(text);
    assert!(diags.is_empty(), "{diags:#?}");
    assert!(lower(&file).1.is_empty());
}

#[test]
fn one_mistake_does_not_hide_the_next_statement() {
    // A bad `steps` and a bad `hint` in one level: two diagnostics, and the
    // title, the board and the following level are still read.
    let text = "level one {\n  title \"One\"\n  steps fifteen\n  hint 'x'\n  board {\n    MIAU IS YOU\n  }\n}\nlevel two {\n  board {\n    .\n  }\n}\n";
    let (file, diags) = parse(text);
    let codes: Vec<&str> = diags.iter().map(|d| d.code()).collect();
    assert_eq!(codes, ["M106", "M102"]);
    let (pack, _) = lower(&file);
    assert_eq!(pack.levels.len(), 2);
    assert_eq!(pack.levels[0].title.as_deref(), Some("One"));
    assert_eq!(pack.levels[0].hint.as_deref(), Some("x"));
    assert_eq!(pack.levels[0].objects.len(), 3);
}

#[test]
fn ragged_rows_keep_their_columns() {
    // Row 1 is short; the unknown key in row 2 is still named at its own column.
    let text = "level l1 {\n  board {\n    . . .\n    . .\n    . . 9\n  }\n}\n";
    let (file, mut diags) = parse(text);
    diags.extend(lower(&file).1);
    miau::diag::sort(&mut diags);
    let codes: Vec<&str> = diags.iter().map(|d| d.code()).collect();
    assert_eq!(codes, ["M108", "M109"]);
    assert_eq!(diags[0].cells, vec![(2, 1)]);
    assert_eq!(diags[0].fixes[0].edits[0].new_text, " .");
    assert_eq!(diags[1].cells, vec![(2, 2)]);
}

//! Every quick fix the editor offers, applied, leaves a file that builds
//! (when it built before) with fewer diagnostics of the fixed code, and its
//! edits never overlap (an LSP `WorkspaceEdit` may not hold two edits over
//! one range). Checked over every `.miau` of the repository and over packs
//! broken on purpose.

use miau::diag::{Severity, TextEdit};
use miau::ide::{Analysis, code_actions};
use proptest::prelude::*;
use std::path::{Path, PathBuf};

fn miau_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = rd.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            miau_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "miau") {
            out.push(p);
        }
    }
}

/// Applies non-overlapping edits, or says why it can't.
fn apply(text: &str, edits: &[TextEdit]) -> Result<String, String> {
    let mut sorted: Vec<&TextEdit> = edits.iter().collect();
    sorted.sort_by_key(|e| (e.span.start, e.span.end));
    for w in sorted.windows(2) {
        if w[1].span.start < w[0].span.end || w[1].span == w[0].span {
            return Err(format!("edits overlap: {:?} and {:?}", w[0], w[1]));
        }
    }
    let mut out = text.to_string();
    for e in sorted.iter().rev() {
        if e.span.end as usize > out.len() || !out.is_char_boundary(e.span.start as usize) {
            return Err(format!("edit out of the text: {e:?}"));
        }
        out.replace_range(e.span.range(), &e.new_text);
    }
    Ok(out)
}

fn errors(a: &Analysis) -> usize {
    a.diagnostics()
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count()
}

/// How much of `code` is left: its diagnostics that aren't allowed (an
/// allowed one stays, as info), each counted once per cell it names, so that
/// fixing one cell of a key's M109 (one diagnostic for all its cells) counts.
fn live(a: &Analysis, code: &str) -> usize {
    a.diagnostics()
        .iter()
        .filter(|d| d.code() == code && !d.message.contains("(allowed: "))
        .map(|d| d.cells.len().max(1))
        .sum()
}

/// The text an author ends up with: an `allow` needs their reason, which no
/// fix can invent (the editor puts the cursor on it), so the test types one.
fn typed(title: &str, new_text: &str) -> String {
    if !title.starts_with("Allow") {
        return new_text.to_string();
    }
    let mut out = new_text.replace("\"\"", "\"Kept on purpose.\"");
    // A snippet placeholder `${1:reason}` becomes its text.
    while let Some(i) = out.find("${") {
        let Some(colon) = out[i..].find(':') else {
            break;
        };
        let Some(close) = out[i..].find('}') else {
            break;
        };
        let inner = out[i + colon + 1..i + close].to_string();
        out.replace_range(i..i + close + 1, &inner);
    }
    out
}

/// Every problem with the fixes offered on `text`.
fn fix_problems(text: &str) -> Vec<String> {
    let a = Analysis::new(text, 1 << 22);
    let mut problems = Vec::new();
    let built = errors(&a) == 0;
    for (k, d) in a.diagnostics().iter().enumerate() {
        let acts = code_actions(&a, d.span);
        for act in acts.iter().filter(|c| c.diagnostic == k) {
            let code = d.code();
            let before = live(&a, code);
            if before >= miau::diag::MAX_PER_SCOPE {
                // The count is capped: fewer can't be seen.
                continue;
            }
            let edits: Vec<TextEdit> = act
                .edits
                .iter()
                .map(|e| TextEdit {
                    span: e.span,
                    new_text: typed(&act.title, &e.new_text),
                })
                .collect();
            let fixed = match apply(text, &edits) {
                Ok(t) => t,
                Err(e) => {
                    problems.push(format!("{code} `{}`: {e}", act.title));
                    continue;
                }
            };
            let b = Analysis::new(&fixed, 1 << 22);
            let after = live(&b, code);
            if after >= before {
                problems.push(format!(
                    "{code} `{}`: {before} {code} before, {after} after:\n{fixed}",
                    act.title
                ));
            }
            if built && errors(&b) > 0 {
                problems.push(format!(
                    "{code} `{}`: the file no longer builds: {:?}\n{fixed}",
                    act.title,
                    b.diagnostics()
                        .iter()
                        .filter(|x| x.severity == Severity::Error)
                        .map(|x| (x.code(), x.message.clone()))
                        .collect::<Vec<_>>()
                ));
            }
        }
    }
    problems
}

#[test]
fn fixes_on_every_repository_file_hold() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for d in [
        "tests",
        "packs",
        "fuzz/corpus",
        "editors",
        "grammar/tree-sitter-miau/test",
    ] {
        miau_files(&root.join(d), &mut files);
    }
    assert!(files.len() > 20, "{files:?}");
    let mut all = Vec::new();
    for f in &files {
        let text = String::from_utf8_lossy(&std::fs::read(f).unwrap()).into_owned();
        for p in fix_problems(&text) {
            all.push(format!("{}: {p}", f.display()));
        }
    }
    assert!(all.is_empty(), "{}", all.join("\n\n"));
}

/// Cells a broken level may hold besides its working rules: stacks of
/// words (pinned in a corner or loose), undeclared and misspelled words,
/// look-alike and unknown keys, misplaced fixed marks, ragged stacks.
const CELLS: &[&str] = &[
    ".",
    ".",
    ".",
    "WIN+IS",
    "IS+WIN",
    "ZAP",
    "ZOT+k",
    "k+ZOT",
    "WIM",
    "STPO+k",
    "0",
    "o",
    "k",
    "WALL",
    "ROCK",
    "PUSH",
    "STOP+PUSH",
    "WIN!+IS!",
    "WIN!+IS",
    "k!",
    "k+",
    "f+WIN",
    "f",
];

/// A pack of one level whose board is the rules `MIAU IS YOU` and
/// `FLAG IS WIN` above a walled room holding `cells`, with a terrain
/// statement naming `terrain` and an optional pair.
fn broken_pack(cells: &[usize], terrain: &[&str], pair: bool, corner: usize) -> String {
    let mut room: Vec<&str> = cells.iter().map(|&i| CELLS[i % CELLS.len()]).collect();
    room.resize(12, ".");
    // One cell goes in the top-left corner, where nothing can push it.
    let first = CELLS[corner % CELLS.len()];
    let mut out = String::from(
        "pack broken {\n  name    \"Broken\"\n  version \"1.0.0\"\n  engine  1\n  rules   2\n}\n\n\
         legend {\n  @ MIAU\n  f FLAG\n  k CRATE\n  o ROCK\n}\n\nlevel lv {\n  title \"Broken\"\n",
    );
    if !terrain.is_empty() {
        out.push_str(&format!("  terrain {}\n", terrain.join(" ")));
    }
    if pair {
        out.push_str("  pair OPEN SHUT\n");
    }
    out.push_str("  board {\n");
    out.push_str(&format!("    {first} . . . . .\n"));
    out.push_str("    MIAU IS YOU . . .\n");
    out.push_str("    FLAG IS WIN . . .\n");
    for row in room.chunks(6) {
        out.push_str(&format!("    {}\n", row.join(" ")));
    }
    out.push_str("    @ . . . f .\n  }\n}\n");
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, .. ProptestConfig::default() })]

    /// Every fix offered on a generated broken pack holds.
    #[test]
    fn fixes_on_broken_packs_hold(
        cells in proptest::collection::vec(0usize..64, 0..12),
        terrain in proptest::sample::subsequence(vec!["ROCK", "GAP", "CRATE"], 0..=3),
        pair in any::<bool>(),
        corner in 0usize..64,
    ) {
        let text = broken_pack(&cells, &terrain, pair, corner);
        let problems = fix_problems(&text);
        prop_assert!(problems.is_empty(), "{text}\n{}", problems.join("\n\n"));
    }
}

/// The three fixes that once broke the file, each on its minimal pack.
#[test]
fn the_fixes_that_broke_files_hold() {
    // "Mark it fixed" on a pinned stack: one edit per word, never two over one cell.
    let stacked = broken_pack(&[], &[], false, 3);
    assert!(stacked.contains("WIN+IS . ."), "{stacked}");
    // "Declare ZAP and ZOT as a pair" with ZOT in a stack `ZOT+k`.
    let pair = broken_pack(&[5, 6], &[], false, 0);
    // "Remove the declaration" on a one-noun terrain.
    let terrain = broken_pack(&[], &["GAP"], false, 0);
    for (text, want) in [
        (&stacked, "M320 Mark it fixed"),
        (&pair, "M301 Declare ZAP and ZOT as a pair"),
        (&terrain, "M303 Remove the declaration"),
    ] {
        let a = Analysis::new(text, 1 << 22);
        let titles: Vec<String> = a
            .diagnostics()
            .iter()
            .enumerate()
            .flat_map(|(k, d)| {
                code_actions(&a, d.span)
                    .into_iter()
                    .filter(move |c| c.diagnostic == k)
                    .map(move |c| format!("{} {}", d.code(), c.title))
            })
            .collect();
        assert!(
            titles.iter().any(|t| t.starts_with(want)),
            "{want} not offered on\n{text}\n{titles:#?}"
        );
        let problems = fix_problems(text);
        assert!(problems.is_empty(), "{text}\n{}", problems.join("\n\n"));
    }
    let a = Analysis::new(&pair, 1 << 22);
    let acts: Vec<_> = a
        .diagnostics()
        .iter()
        .flat_map(|d| code_actions(&a, d.span))
        .filter(|c| c.title.starts_with("Declare ZAP and ZOT as a pair"))
        .collect();
    assert!(!acts.is_empty(), "{pair}");
    assert!(
        acts[0].edits[0].new_text.contains("pair ZAP ZOT\n"),
        "{acts:?}"
    );
}

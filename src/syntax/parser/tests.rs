//! The parser on small texts: blocks, recovery, statement arguments and board cells.

use super::*;

#[test]
fn valid_example_parses_cleanly() {
    let text = include_str!("../../../tests/fixtures/syntax/valid-crate-works.miau");
    let (file, diags) = parse(text);
    assert!(diags.is_empty(), "{diags:#?}");
    let pack = file.pack.expect("pack");
    assert_eq!(pack.id.text, "crate-works");
    assert_eq!(pack.stmts.len(), 5);
    assert_eq!(file.items.len(), 4);
    let Item::Level(level) = &file.items[3] else {
        panic!("level expected")
    };
    assert_eq!(level.stmts.len(), 13);
    let board = level.board.as_ref().expect("board");
    assert_eq!(board.rows.len(), 4);
    assert!(board.rows.iter().all(|r| r.cells.len() == 11));
    assert_eq!(
        board.rows[3].cells[8].parts,
        vec![
            Part::Key("f".into()),
            Part::Word {
                text: "WIN".into(),
                fixed: false
            }
        ]
    );
    assert_eq!(file.comments.len(), 5);
}

fn codes(text: &str) -> Vec<&'static str> {
    parse(text).1.iter().map(|d| d.code()).collect()
}

#[test]
fn single_line_blocks_nesting_and_crlf() {
    let text = "pack p1 { name \"P\" }\r\n%%%\r\n";
    assert_eq!(codes(text), ["M114"]);
    let text = "pack p1 {\r\n  legend { x ROCK + GATE channel teal }\r\n  level l1 { board { x MIAU } }\r\n}\r\n";
    let (file, diags) = parse(text);
    assert!(diags.is_empty(), "{diags:#?}");
    assert_eq!(file.items.len(), 2);
    let Item::Legend(l) = &file.items[0] else {
        panic!("legend first")
    };
    assert_eq!(l.entries[0].things.len(), 2);
    assert_eq!(
        l.entries[0].things[1].channel.as_ref().unwrap().text,
        "teal"
    );
    let Item::Level(lv) = &file.items[1] else {
        panic!("level second")
    };
    assert_eq!(lv.board.as_ref().unwrap().rows[0].cells.len(), 2);
}

#[test]
fn a_block_left_open_is_one_m105_and_the_rest_still_parses() {
    // The level legend misses its brace: the board still belongs to the level.
    let text = "level l1 {\n  legend {\n    x ROCK\n  board {\n    x\n  }\n}\n";
    let (file, diags) = parse(text);
    assert_eq!(diags.len(), 1);
    assert_eq!(diags[0].code(), "M105");
    assert_eq!(
        diags[0].message,
        "The legend block of level l1 that opens on line 2 isn't closed."
    );
    let Item::Level(lv) = &file.items[0] else {
        panic!("level")
    };
    assert!(lv.board.is_some() && lv.legend.is_some());
    // A board and level left open before the next level.
    let text = "level l1 {\n  board {\n    MIAU\nlevel l2 {\n  title \"Two\"\n}\n";
    let (file, diags) = parse(text);
    assert_eq!(diags.iter().map(|d| d.code()).collect::<Vec<_>>(), ["M105"]);
    assert_eq!(file.items.len(), 2);
    // Unclosed at the end of the file.
    assert_eq!(codes("palette {\n  MIAU \"x\"\n"), ["M105"]);
}

#[test]
fn keywords_out_of_place() {
    let (_, d) = parse("automaton a property TICK pattern \"L\"\n");
    assert_eq!(d[0].code(), "M104");
    assert_eq!(
        d[0].message,
        "automaton isn't a statement here. It belongs inside a level block."
    );
    let (_, d) = parse("levl one {\n  title \"x\"\n}\n");
    assert_eq!(d.len(), 1);
    assert_eq!(
        d[0].message,
        "levl isn't a statement here. Did you mean level?"
    );
    assert_eq!(d[0].fixes[0].edits[0].new_text, "level");
    let (_, d) = parse("level one {\n  automation a property TICK pattern \"L\"\n}\n");
    assert_eq!(
        d[0].message,
        "automation isn't a statement here. Did you mean automaton?"
    );
}

#[test]
fn statement_arguments() {
    let (file, d) = parse(
        "level one {\n  frail\n  pair OPEN SHUT\n  automaton a pattern \"LR\" property TICK\n  allow M407\n}\n",
    );
    assert!(d.is_empty(), "{d:#?}");
    let Item::Level(lv) = &file.items[0] else {
        panic!("level")
    };
    assert_eq!(lv.stmts.len(), 4);
    assert!(matches!(&lv.stmts[0].kind, LevelStmtKind::Frail(v) if v.is_empty()));
    let (_, d) = parse("level one {\n  automaton a property TICK\n}\n");
    assert_eq!(
        d[0].message,
        "Expected `pattern \"…\"`, found the end of the line."
    );
    let (_, d) = parse("level one {\n  title \"a\" \"b\"\n}\n");
    assert_eq!(d[0].message, "Expected the end of the line, found `\"b\"`.");
    let (_, d) = parse("pack p { world tagline \"t\" colour red }\n");
    assert_eq!(
        d[0].message,
        "Expected `glyph`, `tagline`, `accent` or the end of the line, found `colour`."
    );
}

#[test]
fn board_cells() {
    let (_, d) = parse("level one {\n  board {\n    WIN!+STOP .!\n  }\n}\n");
    let msgs: Vec<_> = d.iter().map(|d| (d.code(), d.cells.clone())).collect();
    assert_eq!(msgs, [("M113", vec![(0, 0)]), ("M113", vec![(1, 0)])]);
    assert!(
        d[0].message
            .ends_with("mark every word of the stack fixed, or none.")
    );
    let (_, d) = parse("level one {\n  board {\n    WIN+WIN . 🦀\n  }\n}\n");
    assert_eq!(
        d.iter().map(|d| d.code()).collect::<Vec<_>>(),
        ["M112", "M114"]
    );
    assert_eq!(
        d[1].message,
        "Level one, board row 0: boards are ASCII. Give 🦀 a palette entry and a legend key."
    );
}

#[test]
fn a_brace_on_the_next_line_is_one_diagnostic() {
    let (file, d) = parse("level one\n{\n  title \"One\"\n  board\n  {\n    MIAU\n  }\n}\n");
    let msgs: Vec<_> = d.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(
        msgs,
        [
            "Expected `{` at the end of the line to open the level block, found the end of the line.",
            "Expected `{` at the end of the line to open the board block, found the end of the line.",
        ]
    );
    let Item::Level(lv) = &file.items[0] else {
        panic!("level")
    };
    assert_eq!(lv.id.text, "one");
    assert_eq!(lv.board.as_ref().unwrap().rows.len(), 1);
}

#[test]
fn a_misspelt_block_does_not_hide_the_levels_after_it() {
    // `packk` is unknown; the levels written inside it are still read, and
    // its closing brace isn't reported again.
    let text = "packk p {\n  name \"P\"\n  level a {\n    title \"A\"\n  }\n}\nlevel b {\n  title 'B'\n}\n";
    let (file, d) = parse(text);
    assert_eq!(
        d.iter().map(|d| d.code()).collect::<Vec<_>>(),
        ["M104", "M102"]
    );
    assert_eq!(file.items.len(), 2);
    // A properly closed unknown block with nested blocks is skipped whole.
    let (file, d) = parse("levl a {\n  board {\n    x\n  }\n}\nlevel b {\n}\n");
    assert_eq!(d.len(), 1);
    assert_eq!(file.items.len(), 1);
}

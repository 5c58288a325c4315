//! Odd and large models: no panic, bounded cost, the order of the findings.

use super::*;

#[test]
fn skipped_levels_and_order() {
    let a = level("a", "MIAU IS YOU\nm . .");
    let b = level("b", "MIAU IS YOU\nm . .");
    let p = pack(vec![a, b]);
    let d = crate::analysis::analyse_with(&p, &["a".to_string()], &|_| Some(ResetView::default()));
    assert!(d.iter().all(|d| d.level.as_deref() != Some("a")));
    assert!(d.iter().any(|d| d.level.as_deref() == Some("b")));
    let again =
        crate::analysis::analyse_with(&p, &["a".to_string()], &|_| Some(ResetView::default()));
    assert_eq!(d, again);
}

#[test]
fn never_panics_on_odd_models() {
    // Objects off the board, a zero-sized board, an oversized board, unknown ids in the view.
    let mut l = level("odd", "MIAU IS YOU\nm . .");
    l.objects.push(Object {
        id: "far".into(),
        kind: Kind::Word,
        text: "WIN".into(),
        x: 900,
        y: 900,
        ..Object::default()
    });
    let mut view = quiet(&l, &["miau.1 is.1 you.1"]);
    view.destroyed.push(DestroyedView {
        id: "ghost".into(),
        cause: "open".into(),
    });
    view.transformed.push(TransformedView {
        id: "ghost".into(),
        from: "A".into(),
        to: "B".into(),
    });
    view.won_at_start = true;
    run(&l, view.clone());
    let mut zero = l.clone();
    zero.width = 0;
    zero.height = 0;
    run(&zero, view.clone());
    let mut huge = l.clone();
    huge.width = 100_000;
    huge.height = 100_000;
    run(&huge, view);
}

#[test]
fn a_full_128_board_is_cheap() {
    let row: Vec<&str> = (0..128)
        .map(|x| match x % 4 {
            0 => "ROCK",
            1 => "IS",
            2 => "PUSH",
            _ => ".",
        })
        .collect();
    let board: Vec<String> = (0..128).map(|_| row.join(" ")).collect();
    let l = level("big", &board.join("\n"));
    let paths: Vec<String> = (0..32)
        .map(|i| format!("rock.{n} is.{n} push.{n}", n = i + 1))
        .collect();
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    let r = rules(&l, &paths);
    let view = ResetView {
        initial_rules: r.clone(),
        rules: r,
        ..ResetView::default()
    };
    let start = std::time::Instant::now();
    let d = run(&l, view);
    assert!(!d.is_empty());
    assert!(start.elapsed().as_secs() < 5, "{:?}", start.elapsed());
}

#[test]
fn a_full_128_board_through_the_engine_is_cheap() {
    // Every fourth cell a sentence start, things stacked on water everywhere else.
    let row: Vec<&str> = (0..128)
        .map(|x| match x % 8 {
            0 => "ROCK",
            1 => "IS",
            2 => "SINK",
            3 => "r+r",
            4 => "WATER",
            5 => "IS",
            6 => "ROCK",
            _ => "b+r",
        })
        .collect();
    let board: Vec<String> = (0..128).map(|_| row.join(" ")).collect();
    let l = level("big", &board.join("\n"));
    let start = std::time::Instant::now();
    let d = crate::analysis::analyse(&pack(vec![l]), &[]);
    assert!(!d.is_empty());
    assert!(start.elapsed().as_secs() < 10, "{:?}", start.elapsed());
    eprintln!("128x128 through the engine: {:?}", start.elapsed());
}

mod never_panics {
    use super::*;
    use proptest::prelude::*;

    const CELLS: &[&str] = &[
        ".",
        ".",
        ".",
        "MIAU",
        "IS",
        "YOU",
        "WIN",
        "AND",
        "ROCK",
        "SINK",
        "DEFEAT",
        "PUSH",
        "STOP",
        "FLAG",
        "SHUT",
        "TICK",
        "STOP!",
        "IS+AND",
        "WIN+DEFEAT",
        "m",
        "r",
        "w",
        "b+w",
        "f+WIN",
        "d",
        "#",
        "_",
        "|",
        "u",
        "k+=",
    ];

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn random_levels(w in 1usize..9, h in 1usize..7, picks in proptest::collection::vec(0usize..CELLS.len(), 64)) {
            let board: Vec<String> = (0..h)
                .map(|y| (0..w).map(|x| CELLS[picks[(y * w + x) % picks.len()]]).collect::<Vec<_>>().join(" "))
                .collect();
            let mut l = level("random", &board.join("\n"));
            l.terrain.push(Named::new("WALL"));
            l.automata.push(automaton("mouse-walk", "TICK", Some("MOUSE")));
            l.pairs.push(pair("OPEN", "SHUT"));
            l.frail = Some(Frail {
                leaves: vec![(Named::new("DRIFT"), Named::new("DRIFT"))],
                span: Default::default(),
            });
            let p = pack(vec![l]);
            let a = crate::analysis::analyse(&p, &[]);
            let b = crate::analysis::analyse(&p, &[]);
            prop_assert_eq!(a, b);
        }
    }
}

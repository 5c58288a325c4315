//! Boards, copy and glyphs: M326–M334.

use super::*;

#[test]
fn m326_board_too_large() {
    let row = |n: usize| vec!["."; n].join(" ");
    let bad = level("wide", &format!("MIAU IS YOU WIN {}\n{}", row(11), row(15)));
    let ok = level("wide", &format!("MIAU IS YOU WIN {}\n{}", row(10), row(14)));
    case(
        "M326",
        &run(&bad, quiet(&bad, &[])),
        &run(&ok, quiet(&ok, &[])),
    );
}

#[test]
fn m327_sentence_spacing() {
    // Room all round, so every word can be pushed.
    let bad = level(
        "spacing",
        ". . . . . .\n. MIAU IS YOU . .\n. ROCK IS PUSH . .\n. . . . . .\n. m r . . WIN",
    );
    let ok = level(
        "spacing",
        ". . . . . .\n. MIAU IS YOU . .\n. . . . . .\n. ROCK IS PUSH . .\n. . . . . .\n. m r . . WIN",
    );
    case(
        "M327",
        &run(
            &bad,
            quiet(&bad, &["miau.1 is.1 you.1", "rock.1 is.2 push.1"]),
        ),
        &run(
            &ok,
            quiet(&ok, &["miau.1 is.1 you.1", "rock.1 is.2 push.1"]),
        ),
    );
}

/// Stacked sentences whose words can never move (fixed, or walled in where no
/// push reaches them) read down only as drawn: no hint. One loose sentence
/// next to a fixed one still gets it.
#[test]
fn m327_not_on_words_that_never_move() {
    let paths = ["miau.1 is.1 you.1", "rock.1 is.2 push.1"];
    let fixed = level(
        "spacing",
        "MIAU! IS! YOU! . .\nROCK! IS! PUSH! . .\nm r . . WIN",
    );
    assert!(only(&run(&fixed, quiet(&fixed, &paths)), "M327").is_empty());
    // Loose words, but sealed behind terrain no mover can cross.
    let mut sealed = level(
        "spacing",
        "MIAU IS YOU # . .\nROCK IS PUSH # . .\n# # # # . .\n. . . . m WIN",
    );
    sealed.terrain.push(Named::new("WALL"));
    let d = run(&sealed, quiet(&sealed, &paths));
    assert!(only(&d, "M327").is_empty(), "{:#?}", all(&d));
    let half = level(
        "spacing",
        ". . . . . .\n. MIAU! IS! YOU! . .\n. ROCK IS PUSH . .\n. . . . . .\n. m r . . WIN",
    );
    assert_eq!(only(&run(&half, quiet(&half, &paths)), "M327").len(), 1);
}

#[test]
fn m328_to_m330_copy() {
    let base = level("gap", "MIAU IS YOU WIN\nm . . .");
    let with = |title: &str, hint: &str| {
        let mut l = base.clone();
        l.title = Some(title.into());
        l.hint = Some(hint.into());
        l.check.must_form.push(Named::new("MIAU IS WIN"));
        run(&l, quiet(&l, &[]))
    };
    let ok = with("Down to MIAU", "The doorway's only one crate wide.");
    case("M328", &with("Fill The Gap", "Look around."), &ok);
    case("M329", &with("The garden · gate", "Past the gardens."), &ok);
    let d = with(
        "Fill the gap",
        "Try miau  is win, then up, up, right, right.",
    );
    assert_eq!(only(&d, "M330").len(), 1);
    case("M330", &d, &ok);
    let moves = with("Fill the gap", "Go UURRD.");
    assert!(only(&moves, "M330")[0].contains("UURRD"));
}

#[test]
fn sentence_case_keeps_pack_words_and_i() {
    let mut l = level("gap", "MIAU IS YOU WIN\nm . . .");
    l.title = Some("Down to MIAU, I'm sure".into());
    assert!(only(&run(&l, quiet(&l, &[])), "M328").is_empty());
}

fn palette(noun: &str, glyph: &str) -> PaletteEntry {
    PaletteEntry {
        noun: Named::new(noun),
        glyph: glyph.into(),
        ..PaletteEntry::default()
    }
}

#[test]
fn m331_to_m334_glyphs() {
    let l = level("crates", "MIAU IS YOU WIN\nm $ . .");
    let bare = pack(vec![l.clone()]);
    let mut drawn = bare.clone();
    drawn.palette.push(palette("CRATE", "📦"));
    case("M331", &analyse_pack(&bare), &analyse_pack(&drawn));

    let mut reef = drawn.clone();
    reef.palette.push(palette("REEF", "🪸"));
    case("M332", &analyse_pack(&reef), &analyse_pack(&drawn));

    // Every PLATE has a channel: the renderer draws those itself, and the
    // message says so instead of claiming there is no PLATE thing.
    let plates = pack(vec![level("plates", "MIAU IS YOU WIN\nm _ | $")]);
    let mut entry = plates.clone();
    entry.palette.push(palette("CRATE", "📦"));
    let mut unused = entry.clone();
    unused.palette.push(palette("PLATE", "🟫"));
    let fired = only(&analyse_pack(&unused), "M332");
    assert_eq!(
        fired,
        [
            "M332 warning: The palette gives PLATE 🟫, but every PLATE thing in the pack has a channel, \
          and the renderer draws plates and gates with a channel itself, in the channel's \
          colour: this glyph is never used."
        ],
    );
    // A plate without a channel uses the entry.
    let mut bare_plate = unused.clone();
    bare_plate.levels[0].objects[5].channel = None;
    assert_eq!(bare_plate.levels[0].objects[5].text, "PLATE");
    assert!(only(&analyse_pack(&bare_plate), "M332").is_empty());

    let mut jelly = drawn.clone();
    jelly.levels[0] = level("crates", "MIAU IS YOU WIN\nm $ j .");
    jelly.palette.push(palette("JELLY", "🪼"));
    let mut fallback = jelly.clone();
    fallback.palette.last_mut().unwrap().fallback = Some("🎐".into());
    case("M333", &analyse_pack(&jelly), &analyse_pack(&fallback));

    let mut cat = drawn.clone();
    cat.palette.push(palette("MIAU", "🐱"));
    let mut faces = cat.clone();
    faces.palette.last_mut().unwrap().faces = Some("left".into());
    case("M334", &analyse_pack(&cat), &analyse_pack(&faces));
}

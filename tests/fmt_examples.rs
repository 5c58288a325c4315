//! The formatter on a messy but valid file: the exact canonical output.

#[test]
fn messy_file_becomes_canonical() {
    let messy = r#"
// header comment
pack   demo{
engine 1
      name "Demo \"quoted\""   // the name
  version "0.1"
  palette {
    MIAU "🐈"  faces left
    ROCK   "🪨" terrain fallback "o"
  }
}
level   one {
  board {
    MIAU   IS YOU
    // the floor
    @ . r+WIN!   // a rock under a fixed WIN
  }
  hint "Don't."
  pair OPEN SHUT
      title "One"
  legend {
    r ROCK
  }
}
"#;
    let expected = r#"// header comment
pack demo {
  name     "Demo \"quoted\""  // the name
  version  "0.1"
  engine   1
}

palette {
  MIAU "🐈" faces left
  ROCK "🪨" fallback "o" terrain
}

level one {
  title      "One"
  hint       "Don't."
  pair       OPEN SHUT effect destroy-both

  legend {
    r ROCK
  }

  board {
    MIAU IS YOU
    // the floor
    @    .  r+WIN!  // a rock under a fixed WIN
  }
}
"#;
    let out = miau::fmt::format(messy).expect("valid");
    assert_eq!(out, expected);
}

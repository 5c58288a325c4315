//! Helpers the end-to-end tests share: the built binary run from the crate
//! root (also `tests/check_cli.rs`, `tests/catalogue_cli.rs`), and for the
//! bundled-world tests (`tests/worlds.rs`, `tests/crossword_clockwork.rs`)
//! `solve`'s `key: value` lines and a bundled pack's model.

use miau::compile::{SourceKind, compile};
use miau::model::Pack;
use std::process::Command;

/// Runs the built `miauc` from the crate root: exit code, stdout, stderr.
pub fn miauc(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_miauc"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .output()
        .expect("run miauc");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The `key: value` line of `solve` output.
pub fn field<'a>(out: &'a str, key: &str) -> Option<&'a str> {
    out.lines()
        .find_map(|l| l.strip_prefix(key)?.strip_prefix(": "))
}

/// A bundled pack (a path from the crate root), compiled.
pub fn pack(path: &str) -> Pack {
    let text = std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path))
        .expect("bundled pack");
    compile(&text, SourceKind::Miau)
        .pack
        .expect("the bundled pack compiles")
}

/// The comment lines right above `level <id> {` in a bundled pack's source,
/// joined: where a level says why it differs from its world bible.
pub fn comment_above(path: &str, id: &str) -> String {
    let text = std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path))
        .expect("bundled pack");
    let head = format!("level {id} {{");
    let lines: Vec<&str> = text.lines().collect();
    let at = lines
        .iter()
        .position(|l| *l == head)
        .unwrap_or_else(|| panic!("{path}: no `{head}`"));
    let mut comment: Vec<&str> = lines[..at]
        .iter()
        .rev()
        .map_while(|l| l.strip_prefix("//"))
        .collect();
    comment.reverse();
    comment.join(" ")
}

/// A bundled level's step count against its world bible's: within 20 %,
/// and where the two differ, the comment above the level names the bible's
/// count (and so says why).
pub fn assert_steps_match_bible(path: &str, id: &str, steps: u64, bible: u64) {
    let (low, high) = (bible as f64 * 0.8, bible as f64 * 1.2);
    assert!(
        (low..=high).contains(&(steps as f64)),
        "{id}: {steps} steps is not within 20% of the bible's {bible}"
    );
    if steps != bible {
        let comment = comment_above(path, id);
        assert!(
            names_number(&comment, bible),
            "{id}: {steps} steps against the bible's {bible}, and the comment above the level doesn't say why: {comment}"
        );
    }
}

/// Whether `text` names the number `n` as a whole number (not inside 117).
pub fn names_number(text: &str, n: u64) -> bool {
    text.split(|c: char| !c.is_ascii_digit())
        .any(|t| t.parse() == Ok(n))
}

/// The flags of a `check --verbose` level line that its author did not allow,
/// leaving out NARROW: an info about how much room the level gives, which a
/// world may keep (`flags BYPASS (allowed) NARROW` gives none).
pub fn unallowed_flags(line: &str) -> Vec<String> {
    let Some((_, flags)) = line.split_once(", flags ") else {
        return Vec::new();
    };
    let tokens: Vec<&str> = flags.split(' ').collect();
    let mut out = Vec::new();
    for (i, flag) in tokens.iter().enumerate() {
        let allowed = tokens.get(i + 1) == Some(&"(allowed)");
        if *flag != "(allowed)" && *flag != "NARROW" && !allowed {
            out.push((*flag).to_string());
        }
    }
    out
}

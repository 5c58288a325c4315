//! `build(import(json)) == json`: importing canonical pack JSON to `.miau` and
//! building that source gives the same bytes back (`language.md` "Output").
//! Also: every bundled pack builds, building twice gives the same bytes, its
//! JSON imports and rebuilds byte for byte, and `fmt` is idempotent on every
//! `.miau` file of the repository and never changes what a file builds to.

use std::fs;
use std::path::Path;

use miau::compile::build_source;
use miau::import::{to_miau, with_compiler_ids};
use miau::json::{from_json, to_json};

fn round_trip(name: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(name);
    let text = fs::read_to_string(&path).unwrap();
    let (pack, _) = from_json(&text);
    // Ids the compiler wouldn't give are renumbered; the rest is unchanged.
    let mut pack = with_compiler_ids(&pack.expect("a pack"));
    // Source never lists features; the compiler derives them. For a pack
    // without M229-M231 this changes nothing; the legacy proof lists none.
    pack.declared_features = None;
    let expected = to_json(&pack);
    let source = to_miau(&pack);
    match build_source(&source) {
        Ok(built) => assert_eq!(built, expected, "{name}: rebuilt JSON differs\n{source}"),
        Err(diags) => panic!("{name}: imported source doesn't build: {diags:#?}\n{source}"),
    }
}

#[test]
fn kitchen_sink_round_trips() {
    round_trip("tests/fixtures/json/kitchen-sink.json");
}

#[test]
fn legacy_clockwork_proof_round_trips() {
    round_trip("tests/fixtures/clockwork-proof.json");
}

/// Every `.miau` file under `dir`, sorted.
fn miau_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    let mut entries: Vec<_> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        if p.is_dir() && !name.starts_with('.') && name != "target" && name != "node_modules" {
            miau_files(&p, out);
        } else if name.ends_with(".miau") {
            out.push(p);
        }
    }
}

fn bundled_packs() -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    miau_files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("packs"),
        &mut files,
    );
    assert!(files.len() >= 2, "bundled packs missing: {files:?}");
    files
}

#[test]
fn bundled_packs_build_deterministically_and_round_trip() {
    for path in bundled_packs() {
        let text = fs::read_to_string(&path).unwrap();
        let first = build_source(&text).unwrap_or_else(|d| panic!("{path:?}: {d:#?}"));
        let second = build_source(&text).unwrap();
        assert_eq!(first, second, "{path:?}: two builds differ");
        let (pack, diags) = from_json(&first);
        assert!(diags.is_empty(), "{path:?}: {diags:#?}");
        let source = to_miau(&pack.unwrap());
        let rebuilt =
            build_source(&source).unwrap_or_else(|d| panic!("{path:?}: {d:#?}\n{source}"));
        assert_eq!(
            rebuilt, first,
            "{path:?}: build(import(json)) differs\n{source}"
        );
    }
}

#[test]
fn fmt_is_idempotent_and_preserves_the_build_on_every_repository_file() {
    let mut files = Vec::new();
    miau_files(Path::new(env!("CARGO_MANIFEST_DIR")), &mut files);
    let mut formatted_any = 0;
    for path in files {
        let text = fs::read_to_string(&path).unwrap();
        // Fixtures that are broken on purpose have stage 1 errors: fmt refuses them.
        let Ok(once) = miau::fmt::format(&text) else {
            continue;
        };
        formatted_any += 1;
        let twice = miau::fmt::format(&once).unwrap();
        assert_eq!(once, twice, "{path:?}: fmt is not idempotent");
        if let Ok(built) = build_source(&text) {
            assert_eq!(
                build_source(&once).ok(),
                Some(built),
                "{path:?}: fmt changed the build"
            );
        }
    }
    assert!(formatted_any >= 2);
}

/// A length not proven shortest keeps its bound from `.miau` to pack JSON
/// (`stepsAtLeast`, after `steps`) and back to the same statement.
#[test]
fn a_bounded_length_round_trips_through_json() {
    let source = "pack pp {\n  name    \"P\"\n  version \"1.0.0\"\n  engine  1\n}\n\nlevel ll {\n  title \"L\"\n  steps 131 at-least 38\n\n  board {\n    MIAU IS YOU . FLAG IS WIN\n    @    .  .   . f    .  .\n  }\n}\n";
    let json = build_source(source).unwrap_or_else(|d| panic!("{d:#?}"));
    assert!(
        json.contains("\"steps\": 131,\n      \"stepsAtLeast\": 38,"),
        "{json}"
    );
    let (pack, diags) = from_json(&json);
    assert!(diags.is_empty(), "{diags:#?}");
    let imported = to_miau(&pack.unwrap());
    assert!(
        imported.contains("\n  steps 131 at-least 38\n"),
        "{imported}"
    );
    assert_eq!(build_source(&imported).unwrap(), json);
}

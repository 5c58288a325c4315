//! `miauc catalogue` end to end: `packs/README.md` is its output, byte for
//! byte, and a pack that doesn't build fails the command.

// Only the runner is used here; the world helpers stay unused.
#[allow(dead_code)]
mod bundled;
use bundled::miauc;

#[test]
fn packs_readme_is_the_catalogue_of_the_bundled_packs() {
    let (code, out, err) = miauc(&["catalogue", "packs"]);
    assert_eq!(code, 0, "{err}");
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/packs/README.md"))
        .expect("packs/README.md exists");
    assert!(
        readme == out,
        "packs/README.md is stale: regenerate it with\n  cargo run --release -- catalogue packs > packs/README.md\n\
         first differing line: {:?}",
        readme
            .lines()
            .zip(out.lines())
            .find(|(a, b)| a != b)
            .or(Some(("(length differs)", "")))
    );
}

#[test]
fn every_bundled_level_has_a_row() {
    let (code, out, err) = miauc(&["catalogue", "packs"]);
    assert_eq!(code, 0, "{err}");
    // Count levels straight from the sources, independently of the catalogue.
    let mut levels = 0;
    for entry in std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/packs")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "miau") {
            let text = std::fs::read_to_string(&path).unwrap();
            levels += text.lines().filter(|l| l.starts_with("level ")).count();
        }
    }
    let rows = out
        .lines()
        .filter(|l| l.starts_with("| ") && l.contains(" | `") && !l.contains(".miau`"))
        .count();
    assert_eq!(rows, levels, "{out}");
}

#[test]
fn a_pack_that_does_not_build_fails_with_its_diagnostic() {
    let dir = std::env::temp_dir().join(format!("miau-catalogue-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.miau");
    std::fs::write(
        &bad,
        "pack bad {\n  name \"Bad\"\n  version \"1.0.0\"\n  engine 1\n}\n\nlevel a {\n  board {\n    MIAU IS YOU\n    m . .\n    m .\n  }\n}\n",
    )
    .unwrap();
    let (code, out, err) = miauc(&["catalogue", bad.to_str().unwrap()]);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(code, 1, "{out}");
    assert!(out.is_empty(), "{out}");
    assert!(err.contains("M108"), "{err}");
    assert!(err.contains("bad.miau:11:"), "{err}");
}

#[test]
fn a_missing_path_is_a_usage_error() {
    let (code, _, err) = miauc(&["catalogue", "no/such/dir"]);
    assert_eq!(code, 2);
    assert!(err.contains("no/such/dir"), "{err}");
}

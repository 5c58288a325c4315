//! The commands README.md and the docs give a newcomer work as written: the
//! install lines build from the lockfile, and the Neovim parser command
//! succeeds on a fresh clone (where `editors/nvim/parser/` does not exist).

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(root().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// The documents a newcomer reads, and the extension's "not found" message.
const DOCUMENTS: &[&str] = &[
    "README.md",
    "docs/editors.md",
    "docs/ci.md",
    "editors/vscode/README.md",
    "editors/vscode/lib/miauc.js",
];

#[test]
fn every_documented_cargo_install_is_locked() {
    let mut unlocked = Vec::new();
    for doc in DOCUMENTS {
        for (n, line) in read(doc).lines().enumerate() {
            if line.contains("cargo install") && !line.contains("--locked") {
                unlocked.push(format!("{doc}:{}: {line}", n + 1));
            }
        }
    }
    assert!(
        unlocked.is_empty(),
        "`cargo install` without --locked re-resolves dependencies away from Cargo.lock:\n{}",
        unlocked.join("\n")
    );
}

/// The shell line of the Neovim parser build in a document: the line that
/// runs `cc -o editors/nvim/parser/miau.so`, joined with a `mkdir` line just
/// before it when the document writes them as two lines.
fn parser_command(doc: &str) -> String {
    let text = read(doc);
    let lines: Vec<&str> = text.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.contains("cc -o editors/nvim/parser/miau.so"))
        .unwrap_or_else(|| panic!("{doc} gives no parser command"));
    let line = lines[at].trim().trim_start_matches('`');
    let line = line.split('`').next().unwrap().to_string();
    match at.checked_sub(1).map(|i| lines[i].trim()) {
        Some(prev) if prev.starts_with("mkdir ") => format!("{prev} && {line}"),
        _ => line,
    }
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

#[test]
fn the_neovim_parser_command_works_on_a_fresh_clone() {
    let readme = parser_command("README.md");
    assert_eq!(
        readme,
        parser_command("docs/editors.md"),
        "README.md and docs/editors.md give different parser commands"
    );
    // A fresh clone: the grammar's committed sources, no editors/nvim/parser.
    let clone = std::env::temp_dir().join(format!("miau-readme-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&clone);
    copy_dir(
        &root().join("grammar/tree-sitter-miau/src"),
        &clone.join("grammar/tree-sitter-miau/src"),
    );
    std::fs::create_dir_all(clone.join("editors/nvim")).unwrap();
    let out = Command::new("sh")
        .arg("-c")
        .arg(&readme)
        .current_dir(&clone)
        .output()
        .expect("sh runs");
    assert!(
        out.status.success(),
        "`{readme}` failed on a fresh clone:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let built = clone.join("editors/nvim/parser/miau.so");
    assert!(std::fs::metadata(&built).unwrap().len() > 0);
    let _ = std::fs::remove_dir_all(&clone);
}

/// The lines of one `[section]` of a TOML file, up to the next section.
fn toml_section<'a>(text: &'a str, name: &str) -> Vec<&'a str> {
    let header = format!("[{name}]");
    text.lines()
        .skip_while(|l| l.trim() != header)
        .skip(1)
        .take_while(|l| !l.trim_start().starts_with('['))
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect()
}

#[test]
fn the_installed_binary_is_stripped_and_profiling_keeps_line_tables() {
    // What `cargo install --locked` builds: no debug information, stripped
    // (81 MB with line tables, 24 MB without); profiling has its own profile.
    let manifest = read("Cargo.toml");
    let release = toml_section(&manifest, "profile.release");
    assert!(release.contains(&"strip = true"), "{release:?}");
    assert!(release.contains(&"debug = false"), "{release:?}");
    let profiling = toml_section(&manifest, "profile.profiling");
    assert!(
        profiling.contains(&"inherits = \"release\""),
        "{profiling:?}"
    );
    assert!(
        profiling.contains(&"debug = \"line-tables-only\""),
        "{profiling:?}"
    );
    let performance = read("docs/performance.md");
    let words: Vec<&str> = performance.split_whitespace().collect();
    assert!(
        words.windows(2).any(|w| w == ["--profile", "profiling`"]),
        "docs/performance.md names `cargo build --profile profiling`"
    );
}

/// The `name` of Cargo.toml's `[package]`: the crate crates.io publishes.
fn package_name() -> String {
    toml_section(&read("Cargo.toml"), "package")
        .into_iter()
        .find_map(|l| l.strip_prefix("name = \""))
        .and_then(|l| l.strip_suffix('"'))
        .expect("a package name")
        .to_string()
}

#[test]
fn documented_installs_from_crates_io_name_the_published_crate() {
    // `miau` on crates.io is another project: an install that names a crate
    // must name this package.
    let package = package_name();
    let mut wrong = Vec::new();
    for doc in DOCUMENTS {
        for (n, line) in read(doc).lines().enumerate() {
            for command in ["cargo install ", "cargo binstall "] {
                for (at, _) in line.match_indices(command) {
                    // The command runs to the end of its code span or comment.
                    let rest = &line[at + command.len()..];
                    let rest = rest.split(['`', '#']).next().unwrap_or("");
                    let words: Vec<&str> = rest.split_whitespace().collect();
                    let names_a_path = words.contains(&"--path");
                    let crate_name = words.iter().find(|w| !w.starts_with('-'));
                    if !names_a_path && crate_name.is_some_and(|c| *c != package) {
                        wrong.push(format!("{doc}:{}: {line}", n + 1));
                    }
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "not the crate `{package}`:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn readme_install_gives_the_three_ways_in_before_the_build_from_source() {
    let readme = read("README.md");
    let install = &readme[readme.find("\n## Install\n").expect("an Install section")..];
    let install = &install[..install[1..].find("\n## ").map_or(install.len(), |e| e + 1)];
    let package = package_name();
    let at = |what: &str| {
        install
            .find(what)
            .unwrap_or_else(|| panic!("README's Install section does not give `{what}`"))
    };
    let release = at("release binary");
    let binstall = at(&format!("cargo binstall {package}"));
    let crates_io = at(&format!("cargo install {package} --locked"));
    let source = at("cargo install --locked --path .");
    assert!(release < binstall && binstall < crates_io && crates_io < source);
    // The commands that run the main job and the tests stay README's first.
    let first_block = &readme[readme.find("```sh\n").unwrap()..];
    let first_lines: Vec<&str> = first_block.lines().skip(1).take(3).collect();
    assert!(first_lines[0].starts_with("cargo run --release -- check packs"));
    assert!(first_lines.iter().any(|l| l.starts_with("cargo test")));
}

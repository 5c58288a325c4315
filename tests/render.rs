//! `render`: SVG snapshots of every conformance and bundled level at reset
//! (and after its recorded solution), PNG and GIF rasters decoded and
//! checked, and the same bytes on every run.

use miau::compile::{SourceKind, compile};
use miau::model::Pack;
use std::path::{Path, PathBuf};

fn sources() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for dir in ["tests/conformance", "packs"] {
        let mut files: Vec<PathBuf> =
            std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join(dir))
                .unwrap()
                .map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|e| e == "miau"))
                .collect();
        files.sort();
        out.extend(files);
    }
    out
}

fn pack(path: &Path) -> Pack {
    let text = std::fs::read_to_string(path).unwrap();
    compile(&text, SourceKind::Miau)
        .pack
        .unwrap_or_else(|| panic!("{} compiles", path.display()))
}

/// The SVG with each embedded Twemoji picture's path data left out: the
/// snapshot shows which glyph each symbol is (its `data-glyph`), and the
/// pictures themselves are the bundled set's, checked by `glyphs_are_twemoji`.
fn readable(svg: &str) -> String {
    let mut out = String::new();
    let mut rest = svg;
    while let Some(i) = rest.find("<symbol") {
        let open_end = i + rest[i..].find('>').unwrap() + 1;
        out.push_str(&rest[..open_end]);
        let close = rest[open_end..].find("</symbol>").unwrap() + open_end;
        out.push_str("[Twemoji picture]");
        rest = &rest[close..];
    }
    out.push_str(rest);
    out
}

fn name(path: &Path) -> String {
    let dir = path
        .parent()
        .unwrap()
        .file_name()
        .unwrap()
        .to_string_lossy()
        .to_string();
    format!("{dir}-{}", path.file_stem().unwrap().to_string_lossy())
}

#[test]
fn every_level_at_reset_and_after_its_solution() {
    let mut count = 0;
    for path in sources() {
        let pack = pack(&path);
        for level in &pack.levels {
            let (svg, stop) = miau::render::level_svg(&pack, level, "");
            assert!(stop.is_none());
            insta::assert_snapshot!(
                format!("{}__{}", name(&path), level.id.text),
                readable(&svg)
            );
            if let Some(sol) = &level.check.solution {
                let (svg, stop) = miau::render::level_svg(&pack, level, &sol.text);
                assert!(
                    stop.is_none(),
                    "{} {}: {stop:?}",
                    path.display(),
                    level.id.text
                );
                assert!(
                    svg.contains("won in"),
                    "{}: the solution wins",
                    level.id.text
                );
                insta::assert_snapshot!(
                    format!("{}__{}__solved", name(&path), level.id.text),
                    readable(&svg)
                );
            }
            count += 1;
        }
    }
    assert!(count >= 80, "every level was drawn ({count})");
}

#[test]
fn glyphs_are_twemoji_and_bytes_repeat() {
    let pack = pack(Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/play/crate-works-drafts.miau"
    )));
    let level = pack.level("door-stop").unwrap();
    let (a, _) = miau::render::level_svg(&pack, level, "LURR");
    let (b, _) = miau::render::level_svg(&pack, level, "LURR");
    assert_eq!(a, b);
    let cat = miau::render::glyph::twemoji_body("🐈", "e0-").unwrap();
    assert!(
        a.replace('\n', "").contains(&cat.replace('\n', "")),
        "the cat is the bundled Twemoji picture"
    );
    assert_eq!(
        miau::render::raster::png(&a).unwrap(),
        miau::render::raster::png(&b).unwrap()
    );
}

fn decode_png(bytes: &[u8]) -> (u32, u32, Vec<u8>) {
    let mut dec = png::Decoder::new(std::io::Cursor::new(bytes));
    dec.set_transformations(png::Transformations::normalize_to_color8());
    let mut reader = dec.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    buf.truncate(info.buffer_size());
    (info.width, info.height, buf)
}

/// Distinct colours in RGBA pixels: a blank picture has one.
fn colours(rgba: &[u8]) -> usize {
    let mut c: Vec<&[u8]> = rgba.chunks(4).collect();
    c.sort();
    c.dedup();
    c.len()
}

#[test]
fn png_decodes_at_the_svg_size_and_is_not_blank() {
    let pack = pack(Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/play/crate-works-drafts.miau"
    )));
    let level = pack.level("door-stop").unwrap();
    let (svg, _) = miau::render::level_svg(&pack, level, "");
    let bytes = miau::render::raster::png(&svg).unwrap();
    let (w, h, px) = decode_png(&bytes);
    assert!(svg.contains(&format!("width=\"{w}\" height=\"{h}\"")));
    assert!(colours(&px) > 50, "{} colours", colours(&px));
    // The cat's cell holds Twemoji's orange, not only the floor.
    let g = miau::engine::Game::new(level);
    assert!(g.width > 0);
}

#[test]
fn gif_has_one_frame_per_turn_plus_reset() {
    let pack = pack(Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/play/crate-works-drafts.miau"
    )));
    let level = pack.level("door-stop").unwrap();
    let route = level.check.solution.as_ref().unwrap().text.clone();
    let (bytes, stop) = miau::render::route_gif(&pack, level, &route, 40).unwrap();
    assert!(stop.is_none());
    assert_eq!(
        bytes,
        miau::render::route_gif(&pack, level, &route, 40).unwrap().0,
        "same bytes twice"
    );
    let mut opts = gif::DecodeOptions::new();
    opts.set_color_output(gif::ColorOutput::RGBA);
    let mut dec = opts.read_info(std::io::Cursor::new(&bytes)).unwrap();
    let (w, h) = (dec.width(), dec.height());
    let mut frames = Vec::new();
    while let Some(f) = dec.read_next_frame().unwrap() {
        assert_eq!((f.width, f.height), (w, h));
        frames.push(f.buffer.to_vec());
    }
    assert_eq!(frames.len(), route.len() + 1);
    for f in &frames {
        assert!(colours(f) > 20);
    }
    assert_ne!(frames[0], frames[1], "the first turn changes the picture");
}

/// Runs `miauc` with its address space capped at `mib` MiB (`ulimit -v`): a
/// command that holds more than the bound fails instead of passing slowly.
fn miauc_capped(mib: u32, args: &[&str]) -> std::process::Output {
    std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {}; exec \"$0\" \"$@\"", mib * 1024))
        .arg(env!("CARGO_BIN_EXE_miauc"))
        .args(args)
        .output()
        .unwrap()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("miau-render-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A pack with one level on a `side` × `side` board: the rules in the top
/// row, the cat in the corner, the flag in the far corner.
fn square_pack(side: usize) -> String {
    let mut rows = vec![vec!["."; side]; side];
    for (i, w) in ["MIAU", "IS", "YOU", ".", "FLAG", "IS", "WIN"]
        .iter()
        .enumerate()
    {
        rows[0][i] = w;
    }
    rows[2][0] = "@";
    rows[side - 1][side - 1] = "f";
    let board: String = rows
        .iter()
        .map(|r| format!("    {}\n", r.join(" ")))
        .collect();
    format!(
        "pack square {{\n  name \"Square\"\n  version \"1.0.0\"\n  engine 1\n  rules 2\n}}\n\n\
         level wide {{\n  title \"Wide\"\n  board {{\n{board}  }}\n}}\n"
    )
}

#[test]
fn a_long_gif_route_holds_one_frame_at_a_time() {
    // 300 turns on Crate Works' first level: every frame's pixels kept (and
    // every frame's SVG) took over 500 MB; drawn and encoded one at a time it
    // fits in 256 MiB.
    let dir = scratch("long-gif");
    let gif = dir.join("long.gif");
    let moves = "W".repeat(300);
    let pack = Path::new(env!("CARGO_MANIFEST_DIR")).join("packs/crate-works.miau");
    let out = miauc_capped(
        256,
        &[
            "render",
            pack.to_str().unwrap(),
            "--level",
            "crates-move",
            "--moves",
            &moves,
            "-o",
            gif.to_str().unwrap(),
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let bytes = std::fs::read(&gif).unwrap();
    let dec = gif::DecodeOptions::new()
        .read_info(std::io::Cursor::new(&bytes))
        .unwrap();
    assert!(dec.width() > 0);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_gif_of_the_largest_board_is_scaled_down_and_bounded() {
    let dir = scratch("big-gif");
    let src = dir.join("square.miau");
    std::fs::write(&src, square_pack(128)).unwrap();
    let gif = dir.join("big.gif");
    let render = |moves: &str| {
        miauc_capped(
            512,
            &[
                "render",
                src.to_str().unwrap(),
                "--level",
                "wide",
                "--moves",
                moves,
                "-o",
                gif.to_str().unwrap(),
            ],
        )
    };
    let out = render("DDRR");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let bytes = std::fs::read(&gif).unwrap();
    let mut dec = gif::DecodeOptions::new()
        .read_info(std::io::Cursor::new(&bytes))
        .unwrap();
    let pixels = u64::from(dec.width()) * u64::from(dec.height());
    assert!(
        pixels <= miau::render::raster::MAX_GIF_FRAME_PIXELS,
        "{pixels}"
    );
    let mut frames = 0;
    while dec.read_next_frame().unwrap().is_some() {
        frames += 1;
    }
    assert_eq!(frames, 5);
    // Past the GIF's pixel budget: refused with the figures, nothing written.
    std::fs::remove_file(&gif).unwrap();
    let out = render(&"W".repeat(2000));
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("2001 frames") && err.contains("--moves"),
        "{err}"
    );
    assert!(!gif.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

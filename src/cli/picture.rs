//! `miauc render`: a level's picture to SVG, PNG or an animated GIF.

use super::load_pack;
use std::path::Path;

/// Arguments of `miauc render`.
pub struct RenderArgs<'a> {
    /// The `.miau` or pack JSON file.
    pub file: &'a Path,
    /// The level id.
    pub level: &'a str,
    /// Inputs to play first; for a GIF the route animated (default: the
    /// level's recorded solution).
    pub moves: Option<&'a str>,
    /// Where to write; the extension picks the format. `None`: SVG on stdout.
    pub out: Option<&'a Path>,
    /// Hundredths of a second per GIF frame.
    pub delay: u16,
}

/// Runs `miauc render`; the exit status.
pub fn render(a: &RenderArgs<'_>) -> u8 {
    let Some((_, pack)) = load_pack(a.file, Some(a.level)) else {
        return 1;
    };
    let Some(level) = pack.level(a.level) else {
        let ids: Vec<&str> = pack.levels.iter().map(|l| l.id.text.as_str()).collect();
        eprintln!(
            "miauc: {}: no level {}; the levels are {}",
            a.file.display(),
            a.level,
            ids.join(", ")
        );
        return 2;
    };
    let ext = a
        .out
        .and_then(|p| p.extension())
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    let solution = level.check.solution.as_ref().map(|s| s.text.as_str());
    let result = match ext.as_deref() {
        None | Some("svg") => {
            let (svg, stop) = crate::render::level_svg(&pack, level, a.moves.unwrap_or(""));
            Ok((svg.into_bytes(), stop))
        }
        Some("png") => {
            let (svg, stop) = crate::render::level_svg(&pack, level, a.moves.unwrap_or(""));
            crate::render::raster::png(&svg).map(|b| (b, stop))
        }
        Some("gif") => {
            let Some(moves) = a.moves.or(solution) else {
                eprintln!(
                    "miauc: level {} records no solution; pass --moves for the route to animate",
                    a.level
                );
                return 2;
            };
            crate::render::route_gif(&pack, level, moves, a.delay)
        }
        Some(other) => {
            eprintln!("miauc: cannot write .{other}: the output must end in .svg, .png or .gif");
            return 2;
        }
    };
    let (bytes, stop) = match result {
        Ok(x) => x,
        Err(e) => {
            eprintln!("miauc: {e}");
            return 1;
        }
    };
    let written = match a.out {
        Some(p) => super::files::write_output(p, &bytes, &[a.file]),
        None => {
            use std::io::Write;
            std::io::stdout()
                .write_all(&bytes)
                .map_err(|e| format!("standard output: {e}"))
        }
    };
    if let Err(e) = written {
        eprintln!("miauc: {e}");
        return 1;
    }
    match stop {
        Some((n, why)) => {
            eprintln!("miauc: input {n} refused: {why}; drawn as the play stood before it");
            1
        }
        None => 0,
    }
}

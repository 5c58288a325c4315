//! Rasters of the board's SVG: PNG through resvg, and an animated GIF of a
//! route. Text is set in the embedded DejaVu Sans (no system fonts are
//! read), so the same SVG gives the same pixels on every machine.

use resvg::tiny_skia::{Pixmap, Transform};
use resvg::usvg::{self, fontdb};
use std::sync::{Arc, OnceLock};

fn fonts() -> Arc<fontdb::Database> {
    static DB: OnceLock<Arc<fontdb::Database>> = OnceLock::new();
    DB.get_or_init(|| {
        let mut db = fontdb::Database::new();
        db.load_font_data(dejavu::sans::regular().to_vec());
        db.load_font_data(dejavu::sans::bold().to_vec());
        db.set_sans_serif_family("DejaVu Sans");
        Arc::new(db)
    })
    .clone()
}

/// Rasterises an SVG document to RGBA pixels at its own size.
pub fn pixmap(svg: &str) -> Result<Pixmap, String> {
    let opt = usvg::Options {
        fontdb: fonts(),
        font_family: "DejaVu Sans".to_string(),
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_str(svg, &opt).map_err(|e| format!("unreadable SVG: {e}"))?;
    let size = tree.size().to_int_size();
    let mut pm = Pixmap::new(size.width(), size.height())
        .ok_or_else(|| "the picture has no area".to_string())?;
    resvg::render(&tree, Transform::identity(), &mut pm.as_mut());
    Ok(pm)
}

/// The PNG of an SVG document.
pub fn png(svg: &str) -> Result<Vec<u8>, String> {
    pixmap(svg)?
        .encode_png()
        .map_err(|e| format!("PNG encoding failed: {e}"))
}

/// An animated GIF, one frame per SVG (all of one size), each shown for
/// `delay_cs` hundredths of a second (the last one three times as long),
/// looping forever.
pub fn gif(frames: &[String], delay_cs: u16) -> Result<Vec<u8>, String> {
    let mut pixmaps = Vec::with_capacity(frames.len());
    for f in frames {
        pixmaps.push(pixmap(f)?);
    }
    let Some(first) = pixmaps.first() else {
        return Err("no frames".to_string());
    };
    let (w, h) = (first.width(), first.height());
    let (gw, gh) = (
        u16::try_from(w).map_err(|_| "picture too wide for GIF")?,
        u16::try_from(h).map_err(|_| "picture too tall for GIF")?,
    );
    let mut out = Vec::new();
    {
        let mut enc =
            gif::Encoder::new(&mut out, gw, gh, &[]).map_err(|e| format!("GIF: {e}"))?;
        enc.set_repeat(gif::Repeat::Infinite)
            .map_err(|e| format!("GIF: {e}"))?;
        let last = pixmaps.len() - 1;
        for (i, pm) in pixmaps.iter().enumerate() {
            if pm.width() != w || pm.height() != h {
                return Err("frames differ in size".to_string());
            }
            // The board is opaque: demultiplied RGBA is the pixmap's data.
            let mut rgba = pm.data().to_vec();
            let mut frame = gif::Frame::from_rgba_speed(gw, gh, &mut rgba, 10);
            frame.delay = if i == last {
                delay_cs.saturating_mul(3)
            } else {
                delay_cs
            };
            enc.write_frame(&frame).map_err(|e| format!("GIF: {e}"))?;
        }
    }
    Ok(out)
}

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

/// The most pixels one GIF frame has: a larger board is scaled down to fit
/// (a 128 × 128 board is drawn about 6,000 pixels wide; at its own size one
/// frame takes 150 MB and its colour quantisation tens of seconds).
pub const MAX_GIF_FRAME_PIXELS: u64 = 1 << 20;

/// The most pixels a whole GIF has, all frames together (a bound on the
/// time the encoder takes, about a second per 10 M pixels here); past it the
/// GIF is refused with the figures, before anything is drawn.
pub const MAX_GIF_PIXELS: u64 = 1 << 29;

/// The size a frame of `width` × `height` is encoded at: its own, or scaled
/// down to [`MAX_GIF_FRAME_PIXELS`] keeping its proportions.
pub fn gif_frame_size(width: u32, height: u32) -> (u32, u32) {
    let pixels = u64::from(width) * u64::from(height);
    if pixels <= MAX_GIF_FRAME_PIXELS {
        return (width, height);
    }
    let scale = (MAX_GIF_FRAME_PIXELS as f64 / pixels as f64).sqrt();
    let fit = |side: u32| ((f64::from(side) * scale).floor() as u32).max(1);
    (fit(width), fit(height))
}

/// Why a GIF of `frames` frames of `width` × `height` (before scaling) is
/// refused, if it is: it would hold more than [`MAX_GIF_PIXELS`].
pub fn gif_refusal(frames: usize, width: u32, height: u32) -> Option<String> {
    let (w, h) = gif_frame_size(width, height);
    let total = frames as u64 * u64::from(w) * u64::from(h);
    (total > MAX_GIF_PIXELS).then(|| {
        format!(
            "a GIF of {frames} frames of {w} × {h} pixels would hold {} M pixels, more than the \
             {} M a GIF may; animate fewer moves (--moves), or render a PNG of one moment",
            total >> 20,
            MAX_GIF_PIXELS >> 20
        )
    })
}

/// Rasterises an SVG document at `width` × `height` (its own size scaled).
fn pixmap_at(svg: &str, width: u32, height: u32) -> Result<Pixmap, String> {
    let opt = usvg::Options {
        fontdb: fonts(),
        font_family: "DejaVu Sans".to_string(),
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_str(svg, &opt).map_err(|e| format!("unreadable SVG: {e}"))?;
    let size = tree.size();
    let mut pm = Pixmap::new(width, height).ok_or_else(|| "the picture has no area".to_string())?;
    let transform =
        Transform::from_scale(width as f32 / size.width(), height as f32 / size.height());
    resvg::render(&tree, transform, &mut pm.as_mut());
    Ok(pm)
}

/// An animated GIF of `count` frames of `width` × `height` (scaled down by
/// [`gif_frame_size`]), frame `i` drawn from the SVG `frame(i)` when it is
/// encoded, so memory holds one frame at a time. Each frame shows for
/// `delay_cs` hundredths of a second (the last three times as long); the
/// GIF loops forever.
pub fn gif_frames(
    count: usize,
    (width, height): (u32, u32),
    mut frame: impl FnMut(usize) -> String,
    delay_cs: u16,
) -> Result<Vec<u8>, String> {
    if count == 0 {
        return Err("no frames".to_string());
    }
    if let Some(why) = gif_refusal(count, width, height) {
        return Err(why);
    }
    let (w, h) = gif_frame_size(width, height);
    let (gw, gh) = (
        u16::try_from(w).map_err(|_| "picture too wide for GIF")?,
        u16::try_from(h).map_err(|_| "picture too tall for GIF")?,
    );
    let mut out = Vec::new();
    {
        let mut enc = gif::Encoder::new(&mut out, gw, gh, &[]).map_err(|e| format!("GIF: {e}"))?;
        enc.set_repeat(gif::Repeat::Infinite)
            .map_err(|e| format!("GIF: {e}"))?;
        for i in 0..count {
            let pm = pixmap_at(&frame(i), w, h)?;
            // The board is opaque: demultiplied RGBA is the pixmap's data.
            let mut rgba = pm.take();
            let mut frame = gif::Frame::from_rgba_speed(gw, gh, &mut rgba, 10);
            frame.delay = if i + 1 == count {
                delay_cs.saturating_mul(3)
            } else {
                delay_cs
            };
            enc.write_frame(&frame).map_err(|e| format!("GIF: {e}"))?;
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn big_frames_are_scaled_to_the_frame_budget_keeping_proportions() {
        assert_eq!(gif_frame_size(1000, 352), (1000, 352));
        let (w, h) = gif_frame_size(6144, 6144);
        assert!(u64::from(w) * u64::from(h) <= MAX_GIF_FRAME_PIXELS);
        assert_eq!(w, h);
        assert!(w >= 1000, "{w}");
    }

    #[test]
    fn a_gif_past_the_pixel_budget_is_refused_before_drawing() {
        let mut drawn = 0;
        let err = gif_frames(
            100_000,
            (1000, 1000),
            |_| {
                drawn += 1;
                String::new()
            },
            10,
        )
        .unwrap_err();
        assert!(err.contains("100000 frames"), "{err}");
        assert_eq!(drawn, 0);
        assert_eq!(gif_refusal(10, 1000, 352), None);
    }
}

//! Which picture draws a noun: the palette, the built-in glyphs, and the
//! bundled Twemoji graphics (CC-BY 4.0, see `assets/NOTICE.md`).

use crate::model::Pack;
use twemoji_assets::svg::SvgTwemojiAsset;

/// Built-in glyphs of the nouns every pack may use without a palette entry
/// (the M331 list), with the way each looks when it has one.
pub use crate::model::BUILTIN_GLYPHS;

/// How one noun is drawn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Look {
    /// The glyph text (an emoji, or any text), empty when the noun has none.
    pub glyph: String,
    /// `Some(true)` when the glyph looks left, `Some(false)` right, `None`
    /// when it never turns.
    pub faces_left: Option<bool>,
    /// Drawn as a terrain slab.
    pub terrain: bool,
}

/// The look of `noun` in `pack`: its palette entry, else its built-in glyph.
/// A palette entry with the built-in glyph and no `faces` inherits the
/// built-in facing (so a plain `MIAU "🐈"` still turns).
pub fn look(pack: &Pack, noun: &str) -> Look {
    let builtin = BUILTIN_GLYPHS.iter().find(|b| b.0 == noun);
    let faces = |f: Option<&str>| f.map(|f| f == "left");
    match pack.palette.iter().find(|p| p.noun.text == noun) {
        Some(p) => Look {
            glyph: p.glyph.clone(),
            faces_left: faces(p.faces.as_deref())
                .or_else(|| builtin.filter(|b| b.1 == p.glyph).and_then(|b| faces(b.2))),
            terrain: p.terrain,
        },
        None => Look {
            glyph: builtin.map(|b| b.1.to_string()).unwrap_or_default(),
            faces_left: builtin.and_then(|b| faces(b.2)),
            terrain: false,
        },
    }
}

/// The Twemoji picture of `glyph` as the inside of a 36×36 SVG (the outer
/// `<svg>` element removed), or `None` when Twemoji has no such emoji.
/// Element ids inside are prefixed with `prefix`, so two pictures in one
/// document never share an id.
pub fn twemoji_body(glyph: &str, prefix: &str) -> Option<String> {
    let asset = SvgTwemojiAsset::from_emoji(glyph).or_else(|| {
        let bare: String = glyph.chars().filter(|&c| c != '\u{FE0F}').collect();
        SvgTwemojiAsset::from_emoji(&bare)
            .or_else(|| SvgTwemojiAsset::from_emoji(&format!("{bare}\u{FE0F}")))
    })?;
    let svg: &str = asset;
    let start = svg.find('>')? + 1;
    let end = svg.rfind("</svg>")?;
    let body = svg.get(start..end)?;
    Some(
        body.replace("id=\"", &format!("id=\"{prefix}"))
            .replace("url(#", &format!("url(#{prefix}"))
            .replace("href=\"#", &format!("href=\"#{prefix}")),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_glyph_is_in_the_bundled_set() {
        for (noun, glyph, _) in BUILTIN_GLYPHS {
            assert!(twemoji_body(glyph, "x").is_some(), "{noun} {glyph}");
        }
    }

    #[test]
    fn variation_selectors_do_not_matter() {
        assert!(twemoji_body("⭐\u{FE0F}", "a").is_some());
        assert!(twemoji_body("❤", "a").is_some());
        assert!(twemoji_body("not an emoji", "a").is_none());
    }

    #[test]
    fn plain_builtin_glyph_inherits_facing() {
        let mut pack = Pack::default();
        pack.palette.push(crate::model::PaletteEntry {
            noun: crate::model::Named::new("MIAU"),
            glyph: "🐈".into(),
            ..Default::default()
        });
        assert_eq!(look(&pack, "MIAU").faces_left, Some(true));
        pack.palette[0].glyph = "🐱".into();
        assert_eq!(look(&pack, "MIAU").faces_left, None);
    }
}

//! The shared view of one level that every stage 3 check reads: word classes
//! (`rules.md` §2.2), the board after reset as a grid of cells, and the rule
//! list active at reset.
//!
//! Words and things never move during a reset (`rules.md` §8), so positions come
//! from the model; the reset only removes entities and changes nouns, which
//! [`LevelCtx::new`] applies from the [`ResetView`].

use std::collections::{BTreeSet, HashMap};

use super::view::{Axis, NounSet, ResetView, RuleView};
use crate::model::{Kind, Level, Object, Pack};

/// The largest board side the engine accepts (`rules.md` §11.1); larger models
/// are clamped so a malformed model can't make the analysis allocate without bound.
use crate::validate::limits::MAX_BOARD_SIDE as MAX_SIDE;

/// The core properties of every rules version and the feature properties of
/// rules version 2 (`rules.md` §2.2), as stage 2 knows them.
pub use crate::validate::limits::{CORE_PROPERTIES, FEATURE_PROPERTIES};

/// Whether `text` is a core word (IS, AND, a core or feature property).
pub fn is_core_word(text: &str) -> bool {
    text == "IS"
        || text == "AND"
        || CORE_PROPERTIES.contains(&text)
        || FEATURE_PROPERTIES.contains(&text)
}

/// The class of a word text in one level (`rules.md` §2.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WordClass {
    /// `IS`.
    Is,
    /// `AND`.
    And,
    /// A core, feature or declared property.
    Property,
    /// Every other token.
    Noun,
}

/// The live entities of one cell after reset, as indexes into `level.objects`.
#[derive(Debug, Clone, Default)]
pub struct Cell {
    /// Word tiles, in object order.
    pub words: Vec<usize>,
    /// Things, in object order.
    pub things: Vec<usize>,
}

/// One level as stage 3 sees it.
pub struct LevelCtx<'a> {
    /// The pack.
    pub pack: &'a Pack,
    /// The level.
    pub level: &'a Level,
    /// The pack's noun set (note B).
    pub nouns: &'a NounSet,
    /// The reset, when an engine was available.
    pub view: Option<&'a ResetView>,
    /// Board width, clamped to [`MAX_SIDE`].
    pub width: u32,
    /// Board height, clamped to [`MAX_SIDE`].
    pub height: u32,
    /// Cells in reading order, `y * width + x`.
    pub cells: Vec<Cell>,
    /// Noun (things) or text (words) of each object after reset.
    pub text: Vec<String>,
    /// Whether each object survives the reset.
    pub alive: Vec<bool>,
    /// Declared properties of the level: automaton properties and pair words.
    pub declared: BTreeSet<String>,
    /// The rule list active at reset, board records only (empty without a reset).
    pub rules: Vec<RuleView>,
    index: HashMap<&'a str, usize>,
}

impl<'a> LevelCtx<'a> {
    /// Build the view of `level`, applying the reset's removals and transformations.
    pub fn new(
        pack: &'a Pack,
        level: &'a Level,
        nouns: &'a NounSet,
        view: Option<&'a ResetView>,
    ) -> Self {
        let width = level.width.min(MAX_SIDE);
        let height = level.height.min(MAX_SIDE);
        let index: HashMap<&str, usize> = level
            .objects
            .iter()
            .enumerate()
            .map(|(i, o)| (o.id.as_str(), i))
            .collect();
        let mut text: Vec<String> = level.objects.iter().map(|o| o.text.clone()).collect();
        let mut alive = vec![true; level.objects.len()];
        if let Some(v) = view {
            for t in &v.transformed {
                if let Some(&i) = index.get(t.id.as_str()) {
                    text[i] = t.to.clone();
                }
            }
            for d in &v.destroyed {
                if let Some(&i) = index.get(d.id.as_str()) {
                    alive[i] = false;
                }
            }
        }
        let mut cells = vec![Cell::default(); (width * height) as usize];
        for (i, o) in level.objects.iter().enumerate() {
            if !alive[i] || o.x >= width || o.y >= height {
                continue;
            }
            let cell = &mut cells[(o.y * width + o.x) as usize];
            match o.kind {
                Kind::Word => cell.words.push(i),
                Kind::Thing => cell.things.push(i),
            }
        }
        let mut declared = BTreeSet::new();
        for a in &level.automata {
            declared.insert(a.property.text.clone());
        }
        for p in &level.pairs {
            for w in &p.words {
                declared.insert(w.text.clone());
            }
        }
        let rules = view
            .map(|v| {
                v.rules
                    .iter()
                    .filter(|r| r.axis != Axis::Terrain)
                    .cloned()
                    .collect()
            })
            .unwrap_or_default();
        LevelCtx {
            pack,
            level,
            nouns,
            view,
            width,
            height,
            cells,
            text,
            alive,
            declared,
            rules,
            index,
        }
    }

    /// The level id.
    pub fn id(&self) -> &str {
        &self.level.id.text
    }

    /// The class of a word text in this level.
    pub fn class(&self, text: &str) -> WordClass {
        match text {
            "IS" => WordClass::Is,
            "AND" => WordClass::And,
            t if CORE_PROPERTIES.contains(&t)
                || FEATURE_PROPERTIES.contains(&t)
                || self.declared.contains(t) =>
            {
                WordClass::Property
            }
            _ => WordClass::Noun,
        }
    }

    /// The cell at `(x, y)`, or `None` off the board.
    pub fn cell(&self, x: i64, y: i64) -> Option<&Cell> {
        if x < 0 || y < 0 || x >= self.width as i64 || y >= self.height as i64 {
            return None;
        }
        self.cells.get((y * self.width as i64 + x) as usize)
    }

    /// The object index of an id.
    pub fn find(&self, id: &str) -> Option<usize> {
        self.index.get(id).copied()
    }

    /// The object of an index.
    pub fn obj(&self, i: usize) -> &'a Object {
        &self.level.objects[i]
    }

    /// Properties of things of `noun` under the rules active at reset
    /// (`rules.md` §4.1), terrain STOP included.
    pub fn props(&self, noun: &str) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        let all = self.view.map(|v| v.rules.as_slice()).unwrap_or_default();
        for r in all {
            if r.subject == noun && self.class(&r.predicate) == WordClass::Property {
                out.insert(r.predicate.clone());
            }
        }
        if self.level.terrain.iter().any(|t| t.text == noun) {
            out.insert("STOP".to_string());
        }
        out
    }

    /// Ids of the words in some rule active at reset.
    pub fn words_in_rules(&self) -> BTreeSet<&str> {
        self.rules
            .iter()
            .flat_map(|r| r.words.iter().map(String::as_str))
            .collect()
    }

    /// Cells of a word path, in path order (words not in the level are skipped).
    pub fn cells_of(&self, ids: &[String]) -> Vec<(u32, u32)> {
        ids.iter()
            .filter_map(|id| self.find(id))
            .map(|i| (self.obj(i).x, self.obj(i).y))
            .collect()
    }

    /// The text of a sentence as its tiles read: `MIAU IS YOU AND ROCK`.
    pub fn sentence_text(&self, rule: &RuleView) -> String {
        let words: Vec<&str> = rule
            .words
            .iter()
            .filter_map(|id| self.find(id))
            .map(|i| self.obj(i).text.as_str())
            .collect();
        if words.is_empty() {
            format!("{} IS {}", rule.subject, rule.predicate)
        } else {
            words.join(" ")
        }
    }

    /// Where a word path lies: "row 0, columns 4 to 6" or "column 3, rows 1 to 3".
    pub fn extent(&self, ids: &[String]) -> String {
        extent(&self.cells_of(ids))
    }
}

/// "column C, row R" (catalogue 1.7).
pub fn cell_name(x: u32, y: u32) -> String {
    format!("column {x}, row {y}")
}

/// Where a run of cells lies: "row 0, columns 4 to 6", "column 3, rows 1 to 3",
/// or one cell's name.
pub fn extent(cells: &[(u32, u32)]) -> String {
    let Some(&(x0, y0)) = cells.first() else {
        return "no cells".to_string();
    };
    let (xmin, xmax) = min_max(cells.iter().map(|c| c.0));
    let (ymin, ymax) = min_max(cells.iter().map(|c| c.1));
    if xmin == xmax && ymin == ymax {
        cell_name(x0, y0)
    } else if ymin == ymax {
        format!("row {ymin}, columns {xmin} to {xmax}")
    } else if xmin == xmax {
        format!("column {xmin}, rows {ymin} to {ymax}")
    } else {
        format!("columns {xmin} to {xmax}, rows {ymin} to {ymax}")
    }
}

fn min_max(it: impl Iterator<Item = u32>) -> (u32, u32) {
    it.fold((u32::MAX, 0), |(lo, hi), v| (lo.min(v), hi.max(v)))
}

/// "1 thing is" / "3 things are".
pub fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun} is")
    } else {
        format!("{n} {noun}s are")
    }
}

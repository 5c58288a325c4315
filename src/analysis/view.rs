//! The plain data every stage 3 check reads, below the checks themselves:
//! what the engine's reset of a level did ([`ResetView`], with ids and
//! texts, so the checks can be tested with hand-built views and don't
//! depend on the engine's compact state types) and the pack's noun set
//! ([`NounSet`]). [`super::board`] builds its level view from both;
//! [`super::reset`] fills the reset view from the engine.

use std::collections::BTreeSet;

use crate::model::{Kind, Pack};

/// The axis of a rule record (`rules.md` §3.5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Axis {
    /// Read along a row.
    H,
    /// Read down a column.
    V,
    /// The implicit `N IS STOP` of a terrain noun: no words.
    Terrain,
}

/// One rule record (`rules.md` §3.5), with word ids as in the level's objects.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleView {
    /// The subject noun.
    pub subject: String,
    /// The predicate: a noun or a property word.
    pub predicate: String,
    /// The axis.
    pub axis: Axis,
    /// Ids of every word of the sentence path, in path order (empty for terrain).
    pub words: Vec<String>,
    /// Id of the subject word.
    pub subject_id: Option<String>,
    /// Id of the predicate word.
    pub predicate_id: Option<String>,
}

/// A thing whose noun changed at reset.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TransformedView {
    /// Object id.
    pub id: String,
    /// Noun before.
    pub from: String,
    /// Noun after.
    pub to: String,
}

/// An entity removed at reset.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DestroyedView {
    /// Object id.
    pub id: String,
    /// `sink`, `defeat`, or a pair's first word lowercased (`open`).
    pub cause: String,
}

/// What stage 3 reads from the engine's reset of one level (`rules.md` §8).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ResetView {
    /// The rule list of the first parse (step 2), in reading order: the rules
    /// that drove the transform phase and the contact pass.
    pub initial_rules: Vec<RuleView>,
    /// The rule list of the reset state (after the re-parse of step 5), in reading order.
    pub rules: Vec<RuleView>,
    /// Transformations of the reset, in id order.
    pub transformed: Vec<TransformedView>,
    /// Removals of the reset, in the engine's report order.
    pub destroyed: Vec<DestroyedView>,
    /// The reset state already meets the win condition.
    pub won_at_start: bool,
}

/// The noun set of a pack (note B).
#[derive(Debug, Clone, Default)]
pub struct NounSet {
    /// Every noun, built-in ones included.
    pub all: BTreeSet<String>,
    /// The text of every object on every board (words and things), gathered
    /// once so per-level checks don't rescan the whole pack.
    pub board_texts: BTreeSet<String>,
}

impl NounSet {
    /// Collect the noun set: things of every level, both sides of every frail
    /// leftover, palette keys, vocabulary, terrain nouns and the built-in nouns.
    pub fn of(pack: &Pack) -> Self {
        // Built-in nouns (note B, F-XW7): a transformation into one draws a
        // proper glyph, so they count as nouns of every pack.
        // Gathered as borrowed text and copied once per distinct word: the
        // editor builds the set on every edit, over every object of the pack.
        let mut all: BTreeSet<&str> = crate::model::BUILTIN_GLYPHS.iter().map(|b| b.0).collect();
        let mut board_texts: BTreeSet<&str> = BTreeSet::new();
        all.extend(pack.palette.iter().map(|p| p.noun.text.as_str()));
        all.extend(pack.vocabulary.iter().map(|v| v.text.as_str()));
        for l in &pack.levels {
            board_texts.extend(l.objects.iter().map(|o| o.text.as_str()));
            all.extend(
                l.objects
                    .iter()
                    .filter(|o| o.kind == Kind::Thing)
                    .map(|o| o.text.as_str()),
            );
            all.extend(l.terrain.iter().map(|t| t.text.as_str()));
            if let Some(f) = &l.frail {
                for (k, v) in &f.leaves {
                    all.insert(k.text.as_str());
                    all.insert(v.text.as_str());
                }
            }
        }
        let owned = |set: BTreeSet<&str>| set.into_iter().map(str::to_string).collect();
        let (all, board_texts) = (owned(all), owned(board_texts));
        NounSet { all, board_texts }
    }

    /// Whether `noun` is in the set.
    pub fn contains(&self, noun: &str) -> bool {
        self.all.contains(noun)
    }
}

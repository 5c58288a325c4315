//! The pack model: what the game's loader sees, independent of where it came from.
//!
//! `.miau` source is lowered into it (`crate::lower`), pack JSON is read into it
//! (`crate::json`), stage 2 validates it (`crate::validate`), canonical JSON is
//! written from it, and the engine compiles a [`Level`] into its own compact state.
//!
//! The model is deliberately permissive: fields hold what the author wrote
//! (strings for ids, tokens, categories, channels) so that validation can report
//! every mistake with its place. Spans point back into the source the model came
//! from; they are [`Span::default`] for models built in code or read from JSON,
//! where the loader-style `path` names the place instead.

use crate::span::{Move, Shift, Span};

/// The rules-semantics version this toolchain implements (`rules.md`).
pub const RULES_VERSION: u32 = 2;

/// The only engine version there is (`clockwork-api.md` ask 8).
pub const ENGINE_VERSION: u32 = 1;

/// The nouns the game draws without a palette entry, with their glyph and
/// the way each looks (`Some("left")` for a glyph that turns toward its
/// moves): the game's own table (`friction.md` F-XW7, note B of
/// `diagnostics.md`). Any other noun needs a palette entry, or it shows as a
/// text label (M331). The one list the renderer, the noun set of stage 3
/// and the editor's hovers read.
pub const BUILTIN_GLYPHS: &[(&str, &str, Option<&str>)] = &[
    ("MIAU", "🐈", Some("left")),
    ("CAT", "🐈", Some("left")),
    ("BABA", "🐑", Some("left")),
    ("FLAG", "🚩", None),
    ("ROCK", "🪨", None),
    ("WALL", "🧱", None),
    ("WATER", "🌊", None),
    ("GRASS", "🌿", None),
    ("STAR", "⭐", None),
    ("KEY", "🔑", None),
    ("DOOR", "🚪", None),
    ("KEKE", "🦀", None),
    ("THORN", "🌵", None),
    ("GEM", "💎", None),
];

/// The built-in glyph of `noun`, if the game has one ([`BUILTIN_GLYPHS`]).
pub fn builtin_glyph(noun: &str) -> Option<&'static str> {
    BUILTIN_GLYPHS.iter().find(|b| b.0 == noun).map(|b| b.1)
}

/// A whole pack.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Pack {
    /// `manifest.id`.
    pub id: String,
    /// `manifest.name`.
    pub name: String,
    /// `manifest.version`, e.g. `1.0.0`.
    pub version: String,
    /// `manifest.engine`; 1.
    pub engine: u32,
    /// `manifest.rules`: the rules-semantics version; `None` when not stated (M339).
    pub rules: Option<u32>,
    /// `manifest.world`, present for world packs.
    pub world: Option<World>,
    /// `manifest.features` as written in pack JSON. For `.miau` sources this is
    /// empty and [`Pack::derived_features`] is written instead.
    pub declared_features: Option<Vec<String>>,
    /// `palette`, in source order (canonical output sorts by noun).
    pub palette: Vec<PaletteEntry>,
    /// `properties`: the glossary, in source order (canonical output sorts by word).
    pub glossary: Vec<GlossaryEntry>,
    /// `vocabulary`: extra nouns of the pack.
    pub vocabulary: Vec<Named>,
    /// The levels, in pack order.
    pub levels: Vec<Level>,
    /// Pack-wide allowances (`allow` in the pack header).
    pub allow: Vec<Allowance>,
    /// Span of the pack header (the `pack` keyword and id).
    pub span: Span,
    /// Where the "Allow … in the pack" fix inserts a pack-wide `allow`: an
    /// empty span at the end of the header's last statement (or of its `{`).
    /// Empty at 0 for packs read from JSON, which take no source fixes.
    pub allow_at: Span,
}

/// A string with the span it came from.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Named {
    /// The text.
    pub text: String,
    /// Where it was written.
    pub span: Span,
}

impl Named {
    /// A name built in code, without a source span.
    pub fn new(text: impl Into<String>) -> Self {
        Named {
            text: text.into(),
            span: Span::default(),
        }
    }
}

/// `manifest.world`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct World {
    /// The world's glyph (1 to 16 UTF-16 units).
    pub glyph: String,
    /// The tagline (at most 80 UTF-16 units).
    pub tagline: Option<String>,
    /// One of `you push stop win sink defeat`.
    pub accent: Option<String>,
    /// Where it was written.
    pub span: Span,
}

/// One palette entry: how a noun is drawn.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PaletteEntry {
    /// The noun.
    pub noun: Named,
    /// The emoji or text drawn.
    pub glyph: String,
    /// `left` or `right`: the way the glyph looks, so the renderer can turn it.
    pub faces: Option<String>,
    /// A glyph for devices without the newer emoji.
    pub fallback: Option<String>,
    /// Drawn as a terrain slab.
    pub terrain: bool,
    /// Where it was written.
    pub span: Span,
}

/// One glossary entry (`properties` in pack JSON).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct GlossaryEntry {
    /// The property word.
    pub word: Named,
    /// One of `you push stop win sink defeat`.
    pub accent: String,
    /// One sentence of at most 80 characters.
    pub describe: String,
    /// Where it was written.
    pub span: Span,
}

/// A level's category.
pub const CATEGORIES: &[&str] = &["required", "optional", "challenge"];

/// The fixed channel palette (`rules.md` §9.5).
pub const CHANNELS: &[&str] = &["amber", "teal", "rose", "lime", "violet", "slate"];

/// One level.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Level {
    /// The level id.
    pub id: Named,
    /// Title, sentence case.
    pub title: Option<String>,
    /// Hint shown to the player.
    pub hint: Option<String>,
    /// `required`, `optional` or `challenge`, as written.
    pub category: Option<Named>,
    /// Words and ideas this level introduces.
    pub introduces: Introduces,
    /// Words and ideas this level reuses.
    pub reuses: Introduces,
    /// Board width in cells.
    pub width: u32,
    /// Board height in cells.
    pub height: u32,
    /// Automata (`TICK`), in source order.
    pub automata: Vec<Automaton>,
    /// Pairs (`OPEN`/`SHUT`), in declaration order.
    pub pairs: Vec<Pair>,
    /// The frail mechanic, when declared.
    pub frail: Option<Frail>,
    /// Terrain nouns, in order (their implicit `N IS STOP` records come first, in this order).
    pub terrain: Vec<Named>,
    /// Span of the `terrain` statement (empty when there is none, or outside source).
    pub terrain_span: Span,
    /// Check metadata.
    pub check: CheckMeta,
    /// Word tiles and things, in reading order (row, column, stack order).
    pub objects: Vec<Object>,
    /// Span of the level header (`level` keyword and id).
    pub span: Span,
    /// Span of the board block (or of the level when there is none).
    pub board_span: Span,
}

/// `introduces` / `reuses`: word tokens and free-text ideas.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Introduces {
    /// Word tokens.
    pub words: Vec<Named>,
    /// Free-text ideas.
    pub ideas: Vec<String>,
}

impl Introduces {
    /// Nothing listed.
    pub fn is_empty(&self) -> bool {
        self.words.is_empty() && self.ideas.is_empty()
    }
}

/// Check metadata of a level.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct CheckMeta {
    /// `allowBypass`: the level may be won without moving a word.
    pub allow_bypass: Option<Allowance>,
    /// `allowHandsOff`: the level may be won without the player pushing a word.
    pub allow_hands_off: Option<Allowance>,
    /// Other allowances, by code.
    pub allow: Vec<Allowance>,
    /// `mustForm`: rules proven necessary by a forbid search, as written (`TRUCK IS WIN`).
    pub must_form: Vec<Named>,
    /// `mustBreak`: rules active at reset that every win must break at some
    /// parse point, proven by a keep search (`WATER IS SINK`).
    pub must_break: Vec<Named>,
    /// `mustLoseWord`: every win destroys a word, proven by a no-word-loss
    /// search. The name's span is the statement's.
    pub must_lose_word: Option<Named>,
    /// `mustHappen`: claims over what happens (`must-lose MIAU CRAB`,
    /// `must-crumble`, …), each proven by a search that forbids its event.
    pub must_happen: Vec<EventClaim>,
    /// `solverBudget`: the solver's state budget.
    pub solver_budget: Option<u64>,
    /// `solution`: the recorded route, `U D L R W`.
    pub solution: Option<Named>,
    /// `steps`: the recorded length of the shortest route, or of the best
    /// route known when [`CheckMeta::steps_at_least`] is set.
    pub steps: Option<u64>,
    /// `stepsAtLeast` (`steps N at-least M`): the recorded length isn't
    /// proven shortest, and no route is shorter than this.
    pub steps_at_least: Option<u64>,
    /// The `steps` statement, where it was written (none from pack JSON).
    pub steps_span: Span,
}

/// What a claim over events says every win makes happen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EventClaimKind {
    /// `must-lose NOUN…`: a thing of one of the nouns is lost (destroyed
    /// by SINK, DEFEAT or a pair, crumbled, or transformed into another noun).
    Lose,
    /// `must-crumble [NOUN…]`: a FRAIL thing (of one of the nouns) crumbles.
    Crumble,
    /// `must-become NOUN…`: a thing is transformed into one of the nouns.
    Become,
    /// `must-press [CHANNEL…]`: a plate (of one of the channels) is
    /// pressed and opens its gate.
    Press,
    /// `must-pair`: a pair's two things meet and are destroyed.
    Pair,
    /// `must-push-word`: an automaton's thing pushes a word tile.
    PushWord,
}

/// What a claim over events takes after its keyword.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClaimArgs {
    /// One noun or more.
    Nouns,
    /// Any number of nouns, none meaning any.
    SomeNouns,
    /// Any number of channels, none meaning any.
    Channels,
    /// Nothing.
    Nothing,
}

impl EventClaimKind {
    /// Every kind, in the canonical order of their statements.
    pub const ALL: [EventClaimKind; 6] = [
        EventClaimKind::Lose,
        EventClaimKind::Crumble,
        EventClaimKind::Become,
        EventClaimKind::Press,
        EventClaimKind::Pair,
        EventClaimKind::PushWord,
    ];

    /// The statement's keyword (`must-lose`).
    pub fn keyword(self) -> &'static str {
        match self {
            EventClaimKind::Lose => "must-lose",
            EventClaimKind::Crumble => "must-crumble",
            EventClaimKind::Become => "must-become",
            EventClaimKind::Press => "must-press",
            EventClaimKind::Pair => "must-pair",
            EventClaimKind::PushWord => "must-push-word",
        }
    }

    /// The kind of a statement keyword.
    pub fn of_keyword(keyword: &str) -> Option<EventClaimKind> {
        Self::ALL.into_iter().find(|k| k.keyword() == keyword)
    }

    /// The event's name in pack JSON's `mustHappen` (`lose`).
    pub fn event(self) -> &'static str {
        &self.keyword()["must-".len()..]
    }

    /// The kind of a `mustHappen` event name.
    pub fn of_event(event: &str) -> Option<EventClaimKind> {
        Self::ALL.into_iter().find(|k| k.event() == event)
    }

    /// What the statement takes after its keyword.
    pub fn args(self) -> ClaimArgs {
        match self {
            EventClaimKind::Lose | EventClaimKind::Become => ClaimArgs::Nouns,
            EventClaimKind::Crumble => ClaimArgs::SomeNouns,
            EventClaimKind::Press => ClaimArgs::Channels,
            EventClaimKind::Pair | EventClaimKind::PushWord => ClaimArgs::Nothing,
        }
    }
}

/// A claim over events: every win makes the event happen, proven by a
/// search that forbids it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventClaim {
    /// Which event.
    pub kind: EventClaimKind,
    /// Its nouns or channels as written (empty: any, where allowed).
    pub args: Vec<Named>,
    /// The statement's span.
    pub span: Span,
}

impl EventClaim {
    /// The statement as written canonically (`must-lose MIAU CRAB`).
    pub fn statement(&self) -> String {
        let mut out = self.kind.keyword().to_string();
        for a in &self.args {
            out.push(' ');
            out.push_str(&a.text);
        }
        out
    }
}

/// The reason the "Allow … in level" fix writes, for the author to replace:
/// the editor selects it, and stage 2 reports it (M239) until it is
/// replaced, so an allowance never ships without a reason. It lives with
/// the model because stage 2, stage 3 and the editor all read it.
pub const REASON_PLACEHOLDER: &str = "say why this is by design";

/// `allow CODE "reason"`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Allowance {
    /// Code or name as written (`M403`, `bypass`).
    pub code: Named,
    /// Why; required.
    pub reason: String,
    /// Where the statement was written.
    pub span: Span,
}

/// One automaton record (`rules.md` §9.1).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Automaton {
    /// Record id; phases are keyed by it.
    pub id: Named,
    /// The noun it moves, when restricted.
    pub subject: Option<Named>,
    /// The custom property word (`TICK`).
    pub property: Named,
    /// Starting phase.
    pub phase: Option<u64>,
    /// The steps.
    pub pattern: Vec<Step>,
    /// Where it was written.
    pub span: Span,
}

/// A route as the pack stores it: the move letters `u d l r w` in upper
/// case, as `replay --moves` reads them either way. Anything else is kept as
/// written, so M237 quotes what the author typed.
pub fn route_upper(route: &str) -> String {
    route
        .chars()
        .map(|c| match c {
            'u' | 'd' | 'l' | 'r' | 'w' => c.to_ascii_uppercase(),
            _ => c,
        })
        .collect()
}

/// One automaton step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Step {
    /// Move one cell by `(dx, dy)`, one of the four directions.
    Move(i8, i8),
    /// Do nothing this beat.
    Wait,
}

impl Step {
    /// The step for a letter `U D L R W`.
    pub fn from_letter(c: char) -> Option<Step> {
        Some(match c {
            'U' => Step::Move(0, -1),
            'D' => Step::Move(0, 1),
            'L' => Step::Move(-1, 0),
            'R' => Step::Move(1, 0),
            'W' => Step::Wait,
            _ => return None,
        })
    }

    /// The letter of this step.
    pub fn letter(self) -> char {
        match self {
            Step::Move(0, -1) => 'U',
            Step::Move(0, 1) => 'D',
            Step::Move(-1, 0) => 'L',
            Step::Move(1, 0) => 'R',
            Step::Move(..) => '?',
            Step::Wait => 'W',
        }
    }
}

/// One pair record (`rules.md` §9.2).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Pair {
    /// The two words, e.g. `OPEN`, `SHUT`.
    pub words: Vec<Named>,
    /// `destroy-both`.
    pub effect: String,
    /// Whether a mover with one word ignores an occupant with the other.
    pub enter: bool,
    /// Where it was written.
    pub span: Span,
}

/// The frail mechanic (`frail-design.md`).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Frail {
    /// Leftovers: a crumbled noun becomes the mapped noun; unmapped nouns vanish.
    pub leaves: Vec<(Named, Named)>,
    /// Where it was written.
    pub span: Span,
}

/// Whether an object is a word tile or a thing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum Kind {
    /// A word tile: `text` is its word.
    Word,
    /// A thing: `text` is its noun.
    #[default]
    Thing,
}

/// One word tile or thing at reset.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Object {
    /// Stable id, unique in the level.
    pub id: String,
    /// Word or thing.
    pub kind: Kind,
    /// The word's text, or the thing's noun.
    pub text: String,
    /// Column.
    pub x: u32,
    /// Row.
    pub y: u32,
    /// A fixed word (`WIN!`): never pushed or destroyed.
    pub fixed: bool,
    /// A plate's or gate's channel.
    pub channel: Option<String>,
    /// The board cell (or legend entry) it came from.
    pub span: Span,
    /// The part of that cell that writes it: `WIN` in `WIN+IS`, the key for a
    /// thing (shared by every thing of one key). The whole cell when it holds
    /// one part; empty outside source. Quick fixes that rewrite one word of a
    /// stack edit this, never the whole cell.
    pub part: Span,
    /// A thing's noun as its legend entry writes it (`KEY` in `y KEY`), where
    /// a mistake in the noun is made and fixed once for every cell of the
    /// key. Empty for words, the default legend and pack JSON.
    pub legend: Span,
}

impl Object {
    /// The source this object alone is written as: its part of a stack
    /// ([`Object::part`]), else its cell.
    pub fn written(&self) -> Span {
        if self.part == Span::default() {
            self.span
        } else {
            self.part
        }
    }
}

/// Feature names (`rules.md` §11.4), in canonical order.
pub const FEATURES: &[&str] = &[
    "automata", "pairs", "frail", "goal", "gates", "fixed", "terrain", "float",
];

impl Level {
    /// The channels its plates and gates are on, each once, sorted.
    pub fn channels(&self) -> Vec<&str> {
        let mut channels: Vec<&str> = self
            .objects
            .iter()
            .filter_map(|o| o.channel.as_deref())
            .collect();
        channels.sort_unstable();
        channels.dedup();
        channels
    }

    /// The property words this level declares (`rules.md` §2.2): its
    /// automata's properties and its pairs' words, each once, in order.
    pub fn declared_properties(&self) -> std::collections::BTreeSet<&str> {
        self.automata
            .iter()
            .map(|a| a.property.text.as_str())
            .chain(
                self.pairs
                    .iter()
                    .flat_map(|p| p.words.iter().map(|w| w.text.as_str())),
            )
            .collect()
    }

    /// The features this level uses (`rules.md` §11.4), in [`FEATURES`] order.
    pub fn features(&self) -> Vec<&'static str> {
        let has_word = |w: &str| {
            self.objects
                .iter()
                .any(|o| o.kind == Kind::Word && o.text == w)
        };
        let mut out = Vec::new();
        for &f in FEATURES {
            let used = match f {
                "automata" => !self.automata.is_empty(),
                "pairs" => !self.pairs.is_empty(),
                "frail" => self.frail.is_some() || has_word("FRAIL"),
                "goal" => has_word("GOAL"),
                "gates" => self.objects.iter().any(|o| o.channel.is_some()),
                "fixed" => self.objects.iter().any(|o| o.fixed),
                "terrain" => !self.terrain.is_empty(),
                "float" => has_word("FLOAT"),
                _ => false,
            };
            if used {
                out.push(f);
            }
        }
        out
    }
}

impl Pack {
    /// Every free text of the pack that `.miau` writes as a string literal,
    /// with its pack JSON path: names, glyphs, describes, titles, hints,
    /// ideas, solutions, rule requirements and allowance reasons. Stage 2
    /// refuses a line break in any of them (a `.miau` string is one line),
    /// and `import` relies on that.
    pub fn texts(&self) -> Vec<(String, &str)> {
        let mut out = Vec::new();
        self.each_text(&mut |path, text| out.push((path(), text)));
        out
    }

    /// [`Pack::texts`] one by one, each path written only when `f` asks
    /// for it: stage 2 reads every text on every edit in the editor and
    /// names the path only of a text with a line break.
    pub fn each_text<'a>(&'a self, f: &mut dyn FnMut(&dyn Fn() -> String, &'a str)) {
        let pack = self;
        f(&|| "manifest.name".into(), &pack.name);
        f(&|| "manifest.version".into(), &pack.version);
        if let Some(w) = &pack.world {
            f(&|| "manifest.world.glyph".into(), &w.glyph);
            if let Some(t) = &w.tagline {
                f(&|| "manifest.world.tagline".into(), t);
            }
        }
        for e in &pack.palette {
            let noun = &e.noun.text;
            f(&|| format!("palette.{noun}.glyph"), &e.glyph);
            if let Some(fallback) = &e.fallback {
                f(&|| format!("palette.{noun}.fallback"), fallback);
            }
        }
        for e in &pack.glossary {
            f(
                &|| format!("properties.{}.describe", e.word.text),
                &e.describe,
            );
        }
        for (k, a) in pack.allow.iter().enumerate() {
            f(&|| format!("manifest.allow[{k}].reason"), &a.reason);
        }
        for (i, l) in pack.levels.iter().enumerate() {
            for (field, v) in [("title", &l.title), ("hint", &l.hint)] {
                if let Some(v) = v {
                    f(&|| format!("levels[{i}].{field}"), v);
                }
            }
            for (field, intro) in [("introduces", &l.introduces), ("reuses", &l.reuses)] {
                for (k, idea) in intro.ideas.iter().enumerate() {
                    f(&|| format!("levels[{i}].{field}.ideas[{k}]"), idea);
                }
            }
            let c = &l.check;
            if let Some(s) = &c.solution {
                f(&|| format!("levels[{i}].solution"), &s.text);
            }
            for (k, r) in c.must_form.iter().enumerate() {
                f(&|| format!("levels[{i}].mustForm[{k}]"), &r.text);
            }
            for (k, r) in c.must_break.iter().enumerate() {
                f(&|| format!("levels[{i}].mustBreak[{k}]"), &r.text);
            }
            let allows = c
                .allow_bypass
                .iter()
                .chain(c.allow_hands_off.iter())
                .chain(c.allow.iter());
            for a in allows {
                f(&|| format!("levels[{i}].allow"), &a.reason);
            }
        }
    }

    /// The union of the levels' features, in [`FEATURES`] order.
    pub fn derived_features(&self) -> Vec<&'static str> {
        let used: Vec<Vec<&'static str>> = self.levels.iter().map(Level::features).collect();
        FEATURES
            .iter()
            .copied()
            .filter(|f| used.iter().any(|l| l.contains(f)))
            .collect()
    }

    /// The allowance in force for `code` in level `level` (or, for `None`, at
    /// pack level): the first whose code or name matches and that gives a reason
    /// (an allowance without one is M239 and excuses nothing).
    pub fn allowance(&self, level: Option<&str>, code: &str) -> Option<&Allowance> {
        let matches = |a: &&Allowance| {
            !a.reason.trim().is_empty()
                && crate::diag::lookup(&a.code.text).is_some_and(|i| i.code == code)
        };
        match level {
            None => self.allow.iter().find(matches),
            Some(id) => {
                let l = self.level(id)?;
                l.check
                    .allow
                    .iter()
                    .chain(l.check.allow_bypass.iter())
                    .chain(l.check.allow_hands_off.iter())
                    .find(matches)
            }
        }
    }

    /// The level with this id.
    pub fn level(&self, id: &str) -> Option<&Level> {
        self.levels.iter().find(|l| l.id.text == id)
    }
}

/// A level's model moves with its block of text (the editor reuses the
/// model of an unchanged level that an edit before it moved).
impl Shift for Level {
    fn shift(&mut self, m: Move) {
        // Named in full, so a span added to the model can't be left behind.
        let Level {
            id,
            title: _,
            hint: _,
            category,
            introduces,
            reuses,
            width: _,
            height: _,
            automata,
            pairs,
            frail,
            terrain,
            terrain_span,
            check,
            objects,
            span,
            board_span,
        } = self;
        let CheckMeta {
            allow_bypass,
            allow_hands_off,
            allow,
            must_form,
            must_break,
            must_lose_word,
            must_happen,
            solver_budget: _,
            solution,
            steps: _,
            steps_at_least: _,
            steps_span,
        } = check;
        id.shift(m);
        category.shift(m);
        introduces.words.shift(m);
        reuses.words.shift(m);
        automata.shift(m);
        pairs.shift(m);
        if let Some(f) = frail {
            f.leaves.shift(m);
            f.span.shift(m);
        }
        terrain.shift(m);
        terrain_span.shift(m);
        allow_bypass.shift(m);
        allow_hands_off.shift(m);
        allow.shift(m);
        must_form.shift(m);
        must_break.shift(m);
        must_lose_word.shift(m);
        must_happen.shift(m);
        solution.shift(m);
        steps_span.shift(m);
        objects.shift(m);
        span.shift(m);
        board_span.shift(m);
    }
}

impl Shift for Named {
    fn shift(&mut self, m: Move) {
        self.span.shift(m);
    }
}

impl Shift for EventClaim {
    fn shift(&mut self, m: Move) {
        let EventClaim {
            kind: _,
            args,
            span,
        } = self;
        args.shift(m);
        span.shift(m);
    }
}

impl Shift for Allowance {
    fn shift(&mut self, m: Move) {
        self.code.shift(m);
        self.span.shift(m);
    }
}

impl Shift for Automaton {
    fn shift(&mut self, m: Move) {
        self.id.shift(m);
        self.subject.shift(m);
        self.property.shift(m);
        self.span.shift(m);
    }
}

impl Shift for Pair {
    fn shift(&mut self, m: Move) {
        self.words.shift(m);
        self.span.shift(m);
    }
}

impl Shift for Object {
    fn shift(&mut self, m: Move) {
        self.span.shift(m);
        self.part.shift(m);
        self.legend.shift(m);
    }
}

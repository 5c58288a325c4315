//! The stable diagnostic codes of the catalogue (`docs/diagnostics.md`): one row per code.
//!
//! Codes never change meaning; names are as stable as codes (catalogue 1.5).

use super::Severity;

/// One entry of the catalogue: the code, its stable kebab-case name and its default severity.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CodeInfo {
    /// `M` plus stage digit plus two digits, e.g. `M301`.
    pub code: &'static str,
    /// Stable kebab-case name, e.g. `undeclared-property-word`.
    pub name: &'static str,
    /// The severity the catalogue gives it.
    pub severity: Severity,
}

/// Every code of the catalogue, in code order.
pub const CATALOGUE: &[CodeInfo] = &[
    CodeInfo {
        code: "M101",
        name: "unterminated-string",
        severity: Severity::Error,
    },
    CodeInfo {
        code: "M102",
        name: "single-quoted-text",
        severity: Severity::Error,
    },
    CodeInfo {
        code: "M103",
        name: "invalid-escape",
        severity: Severity::Error,
    },
    CodeInfo {
        code: "M104",
        name: "unknown-keyword",
        severity: Severity::Error,
    },
    CodeInfo {
        code: "M105",
        name: "unclosed-block",
        severity: Severity::Error,
    },
    CodeInfo {
        code: "M106",
        name: "unexpected-token",
        severity: Severity::Error,
    },
    CodeInfo {
        code: "M107",
        name: "duplicate-statement",
        severity: Severity::Error,
    },
    CodeInfo {
        code: "M108",
        name: "ragged-board-row",
        severity: Severity::Error,
    },
    CodeInfo {
        code: "M109",
        name: "unknown-legend-key",
        severity: Severity::Error,
    },
    CodeInfo {
        code: "M110",
        name: "legend-key-is-word",
        severity: Severity::Error,
    },
    CodeInfo {
        code: "M111",
        name: "invalid-legend-value",
        severity: Severity::Error,
    },
    CodeInfo {
        code: "M112",
        name: "malformed-stack",
        severity: Severity::Error,
    },
    CodeInfo {
        code: "M113",
        name: "misplaced-fixed-mark",
        severity: Severity::Error,
    },
    CodeInfo {
        code: "M114",
        name: "stray-character",
        severity: Severity::Error,
    },
    CodeInfo {
        code: "M115",
        name: "unused-legend-key",
        severity: Severity::Warning,
    },
    CodeInfo {
        code: "M201",
        name: "missing-field",
        severity: Severity::Error,
    },
    CodeInfo {
        code: "M202",
        name: "wrong-type",
        severity: Severity::Error,
    },
    CodeInfo {
        code: "M203",
        name: "unknown-key",
        severity: Severity::Warning,
    },
    CodeInfo {
        code: "M204",
        name: "unsupported-field",
        severity: Severity::Error,
    },
    CodeInfo {
        code: "M205",
        name: "not-plain-data",
        severity: Severity::Error,
    },
    CodeInfo {
        code: "M206",
        name: "invalid-id",
        severity: Severity::Error,
    },
    CodeInfo {
        code: "M207",
        name: "invalid-token",
        severity: Severity::Error,
    },
    CodeInfo {
        code: "M208",
        name: "reserved-word",
        severity: Severity::Error,
    },
    CodeInfo {
        code: "M209",
        name: "duplicate-level-id",
        severity: Severity::Error,
    },
    CodeInfo {
        code: "M210",
        name: "duplicate-id-in-level",
        severity: Severity::Error,
    },
    CodeInfo {
        code: "M211",
        name: "too-many-levels",
        severity: Severity::Error,
    },
    CodeInfo {
        code: "M212",
        name: "too-many-objects",
        severity: Severity::Error,
    },
    CodeInfo {
        code: "M213",
        name: "board-size-out-of-range",
        severity: Severity::Error,
    },
    CodeInfo {
        code: "M214",
        name: "object-out-of-bounds",
        severity: Severity::Error,
    },
    CodeInfo {
        code: "M215",
        name: "too-many-automata",
        severity: Severity::Error,
    },
    CodeInfo {
        code: "M216",
        name: "pattern-length",
        severity: Severity::Error,
    },
    CodeInfo {
        code: "M217",
        name: "too-many-pairs",
        severity: Severity::Error,
    },
    CodeInfo {
        code: "M218",
        name: "invalid-step",
        severity: Severity::Error,
    },
    CodeInfo {
        code: "M219",
        name: "mixed-step-notation",
        severity: Severity::Hint,
    },
    CodeInfo {
        code: "M220",
        name: "phase-out-of-range",
        severity: Severity::Error,
    },
    CodeInfo {
        code: "M221",
        name: "invalid-pair-words",
        severity: Severity::Error,
    },
    CodeInfo {
        code: "M222",
        name: "pair-word-conflict",
        severity: Severity::Error,
    },
    CodeInfo {
        code: "M223",
        name: "unsupported-pair-effect",
        severity: Severity::Error,
    },
    CodeInfo {
        code: "M224",
        name: "invalid-accent",
        severity: Severity::Error,
    },
    CodeInfo {
        code: "M225",
        name: "invalid-describe",
        severity: Severity::Error,
    },
    CodeInfo {
        code: "M226",
        name: "invalid-world-glyph",
        severity: Severity::Error,
    },
    CodeInfo {
        code: "M227",
        name: "invalid-tagline",
        severity: Severity::Error,
    },
    CodeInfo {
        code: "M228",
        name: "unsupported-version",
        severity: Severity::Error,
    },
    CodeInfo {
        code: "M229",
        name: "unknown-feature",
        severity: Severity::Error,
    },
    CodeInfo {
        code: "M230",
        name: "undeclared-feature",
        severity: Severity::Error,
    },
    CodeInfo {
        code: "M231",
        name: "unused-feature",
        severity: Severity::Warning,
    },
    CodeInfo {
        code: "M232",
        name: "invalid-palette-entry",
        severity: Severity::Error,
    },
    CodeInfo {
        code: "M233",
        name: "invalid-category",
        severity: Severity::Error,
    },
    CodeInfo {
        code: "M234",
        name: "introduces-shape",
        severity: Severity::Warning,
    },
    CodeInfo {
        code: "M235",
        name: "introduces-word-absent",
        severity: Severity::Warning,
    },
    CodeInfo {
        code: "M236",
        name: "invalid-must-form",
        severity: Severity::Error,
    },
    CodeInfo {
        code: "M237",
        name: "invalid-solution-record",
        severity: Severity::Error,
    },
    CodeInfo {
        code: "M238",
        name: "invalid-solver-budget",
        severity: Severity::Error,
    },
    CodeInfo {
        code: "M239",
        name: "invalid-allowance",
        severity: Severity::Warning,
    },
    CodeInfo {
        code: "M240",
        name: "invalid-mechanic",
        severity: Severity::Error,
    },
    CodeInfo {
        code: "M241",
        name: "invalid-leaves",
        severity: Severity::Error,
    },
    CodeInfo {
        code: "M242",
        name: "per-object-leaves",
        severity: Severity::Error,
    },
    CodeInfo {
        code: "M243",
        name: "frail-undeclared",
        severity: Severity::Error,
    },
    CodeInfo {
        code: "M244",
        name: "unknown-channel",
        severity: Severity::Error,
    },
    CodeInfo {
        code: "M245",
        name: "channel-on-other-noun",
        severity: Severity::Error,
    },
    CodeInfo {
        code: "M246",
        name: "missing-channel",
        severity: Severity::Error,
    },
    CodeInfo {
        code: "M247",
        name: "unpaired-channel",
        severity: Severity::Warning,
    },
    CodeInfo {
        code: "M248",
        name: "duplicate-pack-id",
        severity: Severity::Error,
    },
    CodeInfo {
        code: "M249",
        name: "absent-claim-target",
        severity: Severity::Warning,
    },
    CodeInfo {
        code: "M301",
        name: "undeclared-property-word",
        severity: Severity::Warning,
    },
    CodeInfo {
        code: "M302",
        name: "noun-is-property",
        severity: Severity::Error,
    },
    CodeInfo {
        code: "M303",
        name: "declaration-unused",
        severity: Severity::Warning,
    },
    CodeInfo {
        code: "M304",
        name: "property-without-glossary",
        severity: Severity::Warning,
    },
    CodeInfo {
        code: "M305",
        name: "glossary-unused",
        severity: Severity::Warning,
    },
    CodeInfo {
        code: "M306",
        name: "no-you-at-start",
        severity: Severity::Error,
    },
    CodeInfo {
        code: "M307",
        name: "won-at-reset",
        severity: Severity::Error,
    },
    CodeInfo {
        code: "M308",
        name: "no-win-word",
        severity: Severity::Error,
    },
    CodeInfo {
        code: "M309",
        name: "destroyed-at-reset",
        severity: Severity::Warning,
    },
    CodeInfo {
        code: "M310",
        name: "frail-on-sink",
        severity: Severity::Warning,
    },
    CodeInfo {
        code: "M311",
        name: "transformed-at-reset",
        severity: Severity::Info,
    },
    CodeInfo {
        code: "M312",
        name: "transform-chain-at-load",
        severity: Severity::Warning,
    },
    CodeInfo {
        code: "M313",
        name: "transform-conflict",
        severity: Severity::Warning,
    },
    CodeInfo {
        code: "M314",
        name: "transform-blocked-by-identity",
        severity: Severity::Info,
    },
    CodeInfo {
        code: "M315",
        name: "stacked-sentence-spans",
        severity: Severity::Info,
    },
    CodeInfo {
        code: "M316",
        name: "stack-mixes-connective",
        severity: Severity::Hint,
    },
    CodeInfo {
        code: "M317",
        name: "pinned-sentence",
        severity: Severity::Info,
    },
    CodeInfo {
        code: "M318",
        name: "edge-confinement",
        severity: Severity::Hint,
    },
    CodeInfo {
        code: "M319",
        name: "word-trap",
        severity: Severity::Warning,
    },
    CodeInfo {
        code: "M320",
        name: "immovable-word",
        severity: Severity::Info,
    },
    CodeInfo {
        code: "M321",
        name: "win-shortcut-risk",
        severity: Severity::Hint,
    },
    CodeInfo {
        code: "M322",
        name: "plate-near-gate",
        severity: Severity::Warning,
    },
    CodeInfo {
        code: "M323",
        name: "moving-guard",
        severity: Severity::Hint,
    },
    CodeInfo {
        code: "M324",
        name: "must-form-unformable",
        severity: Severity::Error,
    },
    CodeInfo {
        code: "M325",
        name: "frail-leaves-loop",
        severity: Severity::Warning,
    },
    CodeInfo {
        code: "M326",
        name: "board-too-large",
        severity: Severity::Warning,
    },
    CodeInfo {
        code: "M327",
        name: "sentence-spacing",
        severity: Severity::Hint,
    },
    CodeInfo {
        code: "M328",
        name: "title-not-sentence-case",
        severity: Severity::Warning,
    },
    CodeInfo {
        code: "M329",
        name: "copy-deck-violation",
        severity: Severity::Warning,
    },
    CodeInfo {
        code: "M330",
        name: "hint-gives-answer",
        severity: Severity::Warning,
    },
    CodeInfo {
        code: "M331",
        name: "missing-glyph",
        severity: Severity::Warning,
    },
    CodeInfo {
        code: "M332",
        name: "palette-entry-never-drawn",
        severity: Severity::Warning,
    },
    CodeInfo {
        code: "M333",
        name: "emoji-without-fallback",
        severity: Severity::Warning,
    },
    CodeInfo {
        code: "M334",
        name: "glyph-without-facing",
        severity: Severity::Hint,
    },
    CodeInfo {
        code: "M335",
        name: "world-level-count",
        severity: Severity::Warning,
    },
    CodeInfo {
        code: "M336",
        name: "world-without-challenge",
        severity: Severity::Warning,
    },
    CodeInfo {
        code: "M337",
        name: "level-metadata-missing",
        severity: Severity::Warning,
    },
    CodeInfo {
        code: "M338",
        name: "rules-version-outdated",
        severity: Severity::Warning,
    },
    CodeInfo {
        code: "M339",
        name: "rules-version-missing",
        severity: Severity::Info,
    },
    CodeInfo {
        code: "M401",
        name: "unsolved",
        severity: Severity::Error,
    },
    CodeInfo {
        code: "M402",
        name: "limit",
        severity: Severity::Error,
    },
    CodeInfo {
        code: "M403",
        name: "bypass",
        severity: Severity::Warning,
    },
    CodeInfo {
        code: "M404",
        name: "hands-off",
        severity: Severity::Warning,
    },
    CodeInfo {
        code: "M405",
        name: "trivial",
        severity: Severity::Warning,
    },
    CodeInfo {
        code: "M406",
        name: "won-at-start",
        severity: Severity::Error,
    },
    CodeInfo {
        code: "M407",
        name: "skippable",
        severity: Severity::Warning,
    },
    CodeInfo {
        code: "M408",
        name: "must-form-avoidable",
        severity: Severity::Error,
    },
    CodeInfo {
        code: "M409",
        name: "must-form-unproven",
        severity: Severity::Error,
    },
    CodeInfo {
        code: "M410",
        name: "solution-does-not-replay",
        severity: Severity::Error,
    },
    CodeInfo {
        code: "M411",
        name: "solution-length-mismatch",
        severity: Severity::Warning,
    },
    CodeInfo {
        code: "M412",
        name: "won-while-overlapping",
        severity: Severity::Info,
    },
    CodeInfo {
        code: "M413",
        name: "budget-margin",
        severity: Severity::Warning,
    },
    CodeInfo {
        code: "M414",
        name: "unneeded-allowance",
        severity: Severity::Info,
    },
    CodeInfo {
        code: "M415",
        name: "world-without-long-challenge",
        severity: Severity::Warning,
    },
    CodeInfo {
        code: "M416",
        name: "check-skipped",
        severity: Severity::Info,
    },
    CodeInfo {
        code: "M417",
        name: "must-break-avoidable",
        severity: Severity::Error,
    },
    CodeInfo {
        code: "M418",
        name: "must-lose-word-avoidable",
        severity: Severity::Error,
    },
    CodeInfo {
        code: "M419",
        name: "claim-unproven",
        severity: Severity::Error,
    },
    CodeInfo {
        code: "M420",
        name: "steps-unproven",
        severity: Severity::Info,
    },
    CodeInfo {
        code: "M421",
        name: "must-lose-avoidable",
        severity: Severity::Error,
    },
    CodeInfo {
        code: "M422",
        name: "must-crumble-avoidable",
        severity: Severity::Error,
    },
    CodeInfo {
        code: "M423",
        name: "must-become-avoidable",
        severity: Severity::Error,
    },
    CodeInfo {
        code: "M424",
        name: "must-press-avoidable",
        severity: Severity::Error,
    },
    CodeInfo {
        code: "M425",
        name: "must-pair-avoidable",
        severity: Severity::Error,
    },
    CodeInfo {
        code: "M426",
        name: "must-push-word-avoidable",
        severity: Severity::Error,
    },
    CodeInfo {
        code: "M430",
        name: "lesson-skippable",
        severity: Severity::Warning,
    },
    CodeInfo {
        code: "M431",
        name: "narrow-level",
        severity: Severity::Info,
    },
];

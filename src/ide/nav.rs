//! Go to definition, find references and rename.

use super::{Analysis, Occurrence, Role, key_meaning};
use crate::diag::TextEdit;
use crate::span::Span;

/// What a name refers to, so that two occurrences can be compared.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Sym {
    /// A legend key, by its text and the definition it resolves to
    /// (`None` for the default legend).
    Key(String, Option<Span>),
    /// An uppercase word: noun or property.
    Word(String),
    /// A level id.
    Level(String),
    /// A channel name.
    Channel(String),
    /// A name only its own occurrence refers to (pack and automaton ids).
    Own(Span),
}

fn symbol(a: &Analysis, o: &Occurrence) -> Sym {
    match o.role {
        Role::LegendKey | Role::BoardKey => {
            let def = key_meaning(a, o.level, &o.text).and_then(|m| m.defined_at);
            Sym::Key(o.text.clone(), def)
        }
        Role::LevelId => Sym::Level(o.text.clone()),
        Role::Channel => Sym::Channel(o.text.clone()),
        Role::PackId | Role::AutomatonId => Sym::Own(o.span),
        _ => Sym::Word(o.text.clone()),
    }
}

/// Where the name at `offset` is defined: a legend entry, a palette entry, a
/// glossary entry or a level's declaration (automaton, pair), a level header.
pub fn definition(a: &Analysis, offset: usize) -> Vec<Span> {
    let Some(occ) = a.occurrence_at(offset) else {
        return Vec::new();
    };
    match symbol(a, occ) {
        Sym::Key(_, def) => def.into_iter().collect(),
        Sym::Level(_) | Sym::Own(_) => vec![occ.span],
        Sym::Channel(_) => Vec::new(),
        Sym::Word(w) => word_definitions(a, &w, occ.level),
    }
}

fn word_definitions(a: &Analysis, w: &str, level: Option<usize>) -> Vec<Span> {
    let of = |pred: &dyn Fn(&Occurrence) -> bool| -> Vec<Span> {
        a.occurrences()
            .iter()
            .filter(|o| o.text == w && pred(o))
            .map(|o| o.span)
            .collect()
    };
    for found in [
        of(&|o| o.role == Role::PaletteNoun),
        of(&|o| o.role == Role::GlossaryWord),
        of(&|o| {
            matches!(o.role, Role::AutomatonProperty | Role::PairWord)
                && (level.is_none() || o.level == level)
        }),
        of(&|o| matches!(o.role, Role::AutomatonProperty | Role::PairWord)),
        of(&|o| o.role == Role::Vocabulary),
    ] {
        if !found.is_empty() {
            return found;
        }
    }
    Vec::new()
}

/// Every occurrence of the name at `offset`, in text order; with
/// `include_declaration`, its definitions too.
pub fn references(a: &Analysis, offset: usize, include_declaration: bool) -> Vec<Span> {
    let Some(occ) = a.occurrence_at(offset) else {
        return Vec::new();
    };
    let sym = symbol(a, occ);
    let defs = if include_declaration {
        Vec::new()
    } else {
        definition(a, offset)
    };
    a.occurrences()
        .iter()
        .filter(|o| symbol(a, o) == sym)
        .map(|o| o.span)
        .filter(|s| !defs.contains(s))
        .collect()
}

/// The span a rename at `offset` would change: only legend keys defined in the file can be renamed.
pub fn rename_range(a: &Analysis, offset: usize) -> Option<Span> {
    let occ = a.occurrence_at(offset)?;
    match symbol(a, occ) {
        Sym::Key(_, Some(_)) => Some(occ.span),
        _ => None,
    }
}

/// Why `key` can't be a legend key, if it can't (as stage 1 and lowering judge).
fn bad_key(key: &str) -> Option<&'static str> {
    if key.is_empty() {
        Some("a key can't be empty")
    } else if key.starts_with(|c: char| c.is_ascii_uppercase()) {
        Some("a key can't start with a capital letter: that reads as a word")
    } else if key == "." {
        Some("`.` is the empty cell")
    } else if key.contains('+') {
        Some("a key can't contain `+`: that joins a stack")
    } else if key.chars().any(|c| c.is_whitespace() || c.is_control()) || key.contains("//") {
        Some("a key is one run of non-space characters")
    } else if !key.is_ascii() {
        Some("boards are ASCII, so keys are too")
    } else {
        None
    }
}

/// Rename the legend key at `offset` to `new_name` in its definition and every
/// board cell that uses it. Errors say why the rename can't be done.
pub fn rename(a: &Analysis, offset: usize, new_name: &str) -> Result<Vec<TextEdit>, String> {
    let occ = a
        .occurrence_at(offset)
        .ok_or_else(|| "Nothing to rename here.".to_string())?;
    let Sym::Key(old, Some(def)) = symbol(a, occ) else {
        return Err("Only legend keys defined in this file can be renamed.".into());
    };
    if let Some(why) = bad_key(new_name) {
        return Err(format!("{new_name} can't be a legend key: {why}."));
    }
    if new_name == old {
        return Ok(Vec::new());
    }
    // A key already visible where the old one is used would change meaning.
    let users: Vec<&Occurrence> = a
        .occurrences()
        .iter()
        .filter(|o| symbol(a, o) == Sym::Key(old.clone(), Some(def)))
        .collect();
    for u in &users {
        if let Some(m) = key_meaning(a, u.level, new_name) {
            if m.defined_at.is_some() {
                return Err(format!("The key {new_name} is already in use here."));
            }
        }
    }
    // A key the level already shows through the default legend (`@` is
    // MIAU) would turn its cells into the renamed thing.
    let levels: Vec<_> = users.iter().map(|u| u.level).collect();
    let shadowed = a.occurrences().iter().any(|o| {
        o.text == new_name && levels.contains(&o.level) && matches!(symbol(a, o), Sym::Key(..))
    });
    if shadowed {
        return Err(format!(
            "The key {new_name} is already on this board (from the default legend); renaming to it would change those cells."
        ));
    }
    let edits: Vec<TextEdit> = users
        .iter()
        .map(|u| TextEdit {
            span: u.span,
            new_text: new_name.to_string(),
        })
        .collect();
    same_meaning(a.text(), &edits)
        .map_err(|why| format!("{new_name} can't be a legend key here: {why}."))?;
    Ok(edits)
}

/// Whether the file with `edits` applied still reads as the same pack: no
/// new error, and every level holds the same things and words in the same
/// cells. The rename is checked by the front end itself, so a key the
/// legend or board grammar reads differently (`{`, `}`, `x!`) is refused.
fn same_meaning(text: &str, edits: &[TextEdit]) -> Result<(), String> {
    use crate::compile::{SourceKind, compile};
    let mut sorted: Vec<&TextEdit> = edits.iter().collect();
    sorted.sort_by_key(|e| std::cmp::Reverse(e.span.start));
    let mut new = text.to_string();
    for e in sorted {
        let r = e.span.range();
        if r.end > new.len() || !new.is_char_boundary(r.start) || !new.is_char_boundary(r.end) {
            return Err("the edits don't fit the file".into());
        }
        new.replace_range(r, &e.new_text);
    }
    let (before, after) = (
        compile(text, SourceKind::Miau),
        compile(&new, SourceKind::Miau),
    );
    let errors = |c: &crate::compile::Compiled| {
        c.diagnostics
            .iter()
            .filter(|d| d.severity == crate::diag::Severity::Error)
            .count()
    };
    if errors(&after) > errors(&before) {
        return Err("the file would no longer build".into());
    }
    let cells = |c: &crate::compile::Compiled| -> Vec<Vec<(u32, u32, String, bool)>> {
        c.pack.as_ref().map_or_else(Vec::new, |p| {
            p.levels
                .iter()
                .map(|l| {
                    let mut v: Vec<_> = l
                        .objects
                        .iter()
                        .map(|o| (o.x, o.y, o.text.clone(), o.fixed))
                        .collect();
                    v.sort();
                    v
                })
                .collect()
        })
    };
    if cells(&after) != cells(&before) {
        return Err("the boards would read differently".into());
    }
    Ok(())
}

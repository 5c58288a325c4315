//! The names a claim over events may name (`rules.md` §10.6): a noun
//! present in the level, or a channel of its plates and gates. One policy
//! for stage 2, which reports a claim over an absent name (M249), and for
//! stage 4, which runs no search for such a claim (its event can't happen,
//! so any win would show it wrong: the misspelt name is the one message).

use super::limits;
use crate::model::{ClaimArgs, EventClaim, Kind, Level, Named};

/// What a level's claims over events may name.
pub struct ClaimNames<'a> {
    /// Nouns present as a thing, as a word tile that isn't a connective or
    /// a core, feature or declared property word (things can become it),
    /// or as a frail leftover; sorted, each once.
    pub nouns: Vec<&'a str>,
    /// Its plates' and gates' channels; sorted, each once.
    pub channels: Vec<&'a str>,
}

impl<'a> ClaimNames<'a> {
    /// The names of `level`.
    pub fn of(level: &'a Level) -> Self {
        let declared = level.declared_properties();
        let mut nouns: Vec<&str> = level
            .objects
            .iter()
            .filter(|o| {
                o.kind == Kind::Thing
                    || !(limits::is_reserved(&o.text) || declared.contains(o.text.as_str()))
            })
            .map(|o| o.text.as_str())
            .chain(level.frail.iter().flat_map(|f| {
                f.leaves
                    .iter()
                    .flat_map(|(a, b)| [a.text.as_str(), b.text.as_str()])
            }))
            .collect();
        nouns.sort_unstable();
        nouns.dedup();
        ClaimNames {
            nouns,
            channels: level.channels(),
        }
    }

    /// What `claim`'s arguments are (`"noun"` or `"channel"`) and the names
    /// they may take; `None` for a claim without arguments.
    pub fn known(&self, claim: &EventClaim) -> Option<(&'static str, &[&'a str])> {
        match claim.kind.args() {
            ClaimArgs::Nouns | ClaimArgs::SomeNouns => Some(("noun", &self.nouns)),
            ClaimArgs::Channels => Some(("channel", &self.channels)),
            ClaimArgs::Nothing => None,
        }
    }

    /// The arguments of `claim` that name nothing in the level.
    pub fn absent<'c>(&self, claim: &'c EventClaim) -> Vec<&'c Named> {
        let Some((_, known)) = self.known(claim) else {
            return Vec::new();
        };
        claim
            .args
            .iter()
            .filter(|arg| !known.contains(&arg.text.as_str()))
            .collect()
    }
}

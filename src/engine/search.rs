//! Search hooks: a [`State`]'s packed words, so the solver can keep its
//! frontier in one flat buffer and rebuild states without allocating.

use super::state::State;

impl State {
    /// The packed words (entities, automaton phases, `won`): the solver's key,
    /// since two states are the same exactly when their words are equal.
    pub fn words(&self) -> &[u32] {
        &self.data
    }

    /// Overwrites this state with words taken from [`State::words`] of a state
    /// of the same game (reusing the allocation when the length matches).
    pub fn load_words(&mut self, words: &[u32]) {
        if self.data.len() == words.len() {
            self.data.copy_from_slice(words);
        } else {
            self.data = words.into();
        }
    }
}

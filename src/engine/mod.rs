//! The rules engine of `rules.md` on a compact state shared with the solver.

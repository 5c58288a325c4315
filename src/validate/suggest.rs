//! Did-you-mean for stage 2: the shared engine of [`crate::suggest`].

pub use crate::suggest::or_list;

/// The suggestions for `written` among `candidates`, best first (at most three, all tied).
pub fn did_you_mean<'a>(written: &str, candidates: &[&'a str]) -> Vec<&'a str> {
    crate::suggest::suggest(written, candidates)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_within_distance() {
        let cats = ["required", "optional", "challenge"];
        assert_eq!(did_you_mean("challange", &cats), vec!["challenge"]);
        assert_eq!(did_you_mean("Required", &cats), vec!["required"]);
        assert!(did_you_mean("nothing", &cats).is_empty());
        let accents = ["you", "push", "stop", "win", "sink", "defeat"];
        assert_eq!(did_you_mean("pushh", &accents), vec!["push"]);
        // Short names allow one edit only.
        assert!(did_you_mean("wxx", &accents).is_empty());
        assert_eq!(or_list(&["a", "b", "c"]), "a, b or c");
    }
}

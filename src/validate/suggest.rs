//! Did-you-mean (catalogue 1.7): the candidates valid at a position, compared
//! without case; the best within edit distance 2 (1 for names of 4 letters or
//! fewer) is offered, and ties list up to three.

/// The suggestions for `written` among `candidates`, best first (at most three, all tied).
pub fn did_you_mean<'a>(written: &str, candidates: &[&'a str]) -> Vec<&'a str> {
    let w = written.to_lowercase();
    let limit = if w.chars().count() <= 4 { 1 } else { 2 };
    let mut best = usize::MAX;
    let mut out: Vec<&'a str> = Vec::new();
    for &c in candidates {
        let d = distance(&w, &c.to_lowercase());
        if d > limit || d > best {
            continue;
        }
        if d < best {
            best = d;
            out.clear();
        }
        if out.len() < 3 && !out.contains(&c) {
            out.push(c);
        }
    }
    out
}

/// The suggestion list as text: `challenge`, `amber or teal`, `a, b or c`.
pub fn or_list(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => (*one).to_string(),
        [init @ .., last] => format!("{} or {}", init.join(", "), last),
    }
}

/// Levenshtein distance over characters.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, ca) in a.chars().enumerate() {
        cur[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let cost = usize::from(ca != cb);
            cur[j + 1] = (prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
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

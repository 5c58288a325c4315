//! The estimate of [`LevelGuide::by_reach`]: walks measured around walls.
//!
//! The other guides measure a YOU thing's way to a WIN thing, or to the
//! things a WIN rule still to be formed would make WIN, as the crow
//! flies. Where STOP things wall the YOU things into pockets, that
//! distance is short while the way is shut, and the search spends its
//! states forming the rule in the pocket where no YOU thing can use it.
//! Here each walk is a breadth-first walk around STOP things (words and
//! PUSH things can be pushed aside, so they don't block it), and a thing
//! no YOU thing can reach costs as much as crossing the board twice: the
//! states in which a wall has opened come first.

use super::{FORMING, HOPELESS, LevelGuide, YOU_TO_WIN, taxicab};
use crate::engine::{Class, State, Tok};
use std::collections::VecDeque;

/// The property bits the walk reads, besides YOU and WIN.
#[derive(Debug, Clone, Copy)]
pub(super) struct Walls {
    /// STOP: a thing that is STOP and neither PUSH nor YOU is a wall.
    pub stop: u64,
    /// SINK: a YOU thing that is SINK destroys what it walks onto, a WIN
    /// thing included, so it wins nothing by walking.
    pub sink: u64,
}

/// The words that could form a rule, as [`reach_estimate`] reads them.
#[derive(Default)]
struct Words {
    nouns: Vec<(Tok, (i32, i32))>,
    is: Vec<(i32, i32)>,
    wins: Vec<(i32, i32)>,
}

impl LevelGuide<'_> {
    /// The estimate of state `s` (loaded in `state`, its things'
    /// properties `props`): 0 when a YOU thing is WIN; else the least of
    /// the walk from a YOU thing that isn't SINK to a WIN thing (counted
    /// [`YOU_TO_WIN`] times), and, for a noun word, an IS word and a WIN
    /// word that could line up into a rule, the steps that line them up
    /// (three each) plus the walk to the nearest thing of that noun, after
    /// [`FORMING`]. Kinds with no thing on the board form no useful rule
    /// and count for nothing; [`HOPELESS`] when no YOU thing walks.
    pub(super) fn reach_estimate(
        &self,
        s: &[u32],
        state: &State,
        props: &[u64],
        walls: Walls,
    ) -> u32 {
        let (you_bit, win_bit, _, push_bit) = self.bits;
        let (w, h) = (i32::from(self.game.width), i32::from(self.game.height));
        let index = |(x, y): (i32, i32)| (y * w + x) as usize;
        let mut wall = vec![false; (w * h) as usize];
        let mut steps = vec![u32::MAX; wall.len()];
        let mut queue = VecDeque::new();
        let mut words = Words::default();
        let (mut things, mut win_things) = (vec![], vec![]);
        for (e, word, t, at) in self.placed(s, state) {
            if word {
                match self.class(t) {
                    Class::Is => words.is.push(at),
                    Class::Prop(_) if self.game.vocab.prop_bit(t) & win_bit != 0 => {
                        words.wins.push(at)
                    }
                    Class::Noun => words.nouns.push((t, at)),
                    _ => {}
                }
                continue;
            }
            let p = props[e];
            if p & you_bit != 0 && p & win_bit != 0 {
                return 0;
            }
            if p & walls.stop != 0 && p & (push_bit | you_bit) == 0 {
                wall[index(at)] = true;
            }
            if p & you_bit != 0 && p & walls.sink == 0 && steps[index(at)] == u32::MAX {
                steps[index(at)] = 0;
                queue.push_back(at);
            }
            if p & win_bit != 0 {
                win_things.push(at);
            }
            things.push((t, at));
        }
        if queue.is_empty() {
            return HOPELESS;
        }
        while let Some(at) = queue.pop_front() {
            let next = steps[index(at)] + 1;
            for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                let to = (at.0 + dx, at.1 + dy);
                if (0..w).contains(&to.0)
                    && (0..h).contains(&to.1)
                    && !wall[index(to)]
                    && steps[index(to)] == u32::MAX
                {
                    steps[index(to)] = next;
                    queue.push_back(to);
                }
            }
        }
        // A thing behind walls costs as much as crossing the board twice.
        let shut = 2 * (w + h) as u32;
        let walk = |at: (i32, i32)| match steps[index(at)] {
            u32::MAX => shut,
            n => n,
        };
        let mut best = win_things
            .iter()
            .map(|&at| YOU_TO_WIN * walk(at))
            .min()
            .unwrap_or(HOPELESS);
        // The walk to each kind's nearest thing, once per kind.
        let mut kinds: Vec<(Tok, u32)> = Vec::new();
        for &(t, at) in &things {
            let n = walk(at);
            match kinds.iter_mut().find(|(k, _)| *k == t) {
                Some((_, least)) => *least = (*least).min(n),
                None => kinds.push((t, n)),
            }
        }
        for &i in &words.is {
            for (dx, dy) in [(1, 0), (0, 1)] {
                let after = (i.0 + dx, i.1 + dy);
                let Some(win) = words.wins.iter().map(|&g| taxicab(g, after)).min() else {
                    continue;
                };
                let before = (i.0 - dx, i.1 - dy);
                let noun = words
                    .nouns
                    .iter()
                    .filter_map(|&(t, at)| {
                        let (_, to_thing) = kinds.iter().find(|(k, _)| *k == t)?;
                        Some(3 * taxicab(at, before) + to_thing)
                    })
                    .min();
                if let Some(noun) = noun {
                    best = best.min(FORMING + noun + 3 * win);
                }
            }
        }
        best
    }
}

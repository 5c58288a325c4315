//! A level's search on a wall clock (`solve --timeout`, the solver
//! benchmark's two minutes), in the shell because it reads the clock. The
//! core's two parts of a search each get a share: the shortest-route
//! search ([`search_exact`]) the first [`SEARCH_SHARE`], and where it stops
//! without a route (out of time, states or memory), the satisficing passes
//! after it ([`find_route`]) what is left. Without that share a level the
//! clock stops would never get those passes, whose routes decide most
//! levels the exact search can't (Microban II 126's takes about 2 s of
//! them), and the whole stays within the clock.

use crate::engine::Game;
use crate::solver::level::{Constraints, find_route, needs_route, search_exact};
use crate::solver::{Limits, Outcome, Progress};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// The share of the clock the shortest-route search may take, as a
/// fraction (numerator, denominator): three quarters. The exact searches
/// that finish late finish well inside it (Microban 93 proves its 53 steps
/// in 56 s of a 2-minute clock on a quiet host), and the quarter left is
/// 30 s of satisficing passes, enough for the routes they find on the real
/// sets' hard levels.
pub const SEARCH_SHARE: (u32, u32) = (3, 4);

/// A search on a clock: its outcome, and whether the clock ran out in it.
#[derive(Debug, Clone)]
pub struct Timed {
    /// The outcome: [`crate::solver::Verdict::Cancelled`] when the clock (or the caller's
    /// cancel flag) stopped the search before any route was found.
    pub outcome: Outcome,
    /// The clock stopped a search (the exact one, or the passes after it).
    pub timed_out: bool,
}

/// [`crate::solver::level::search_level`] within `clock`: the
/// shortest-route search gets [`SEARCH_SHARE`] of it, and a plain solve that stops without a route
/// (on the clock or out of budget) gets the satisficing passes after it for
/// the rest. `cancel` stops either part at once: the clock sets it, and a
/// caller may too (a Ctrl-C); a caller's cancel ends the run.
pub fn search_level_on_clock(
    game: &Game,
    constraints: Constraints,
    limits: Limits,
    clock: Duration,
    jobs: usize,
    cancel: &AtomicBool,
    progress: &mut dyn FnMut(Progress),
) -> Timed {
    let start = Instant::now();
    let (num, den) = SEARCH_SHARE;
    let share = clock / den * num;
    let plain = constraints == Constraints::default();
    let (outcome, timed_out) = with_alarm(share, cancel, || {
        search_exact(game, constraints, limits, jobs, cancel, progress)
    });
    if !needs_route(&outcome, plain, timed_out) {
        return Timed { outcome, timed_out };
    }
    // The alarm set the flag; the passes get a clock of their own.
    cancel.store(false, Ordering::SeqCst);
    let left = clock.saturating_sub(start.elapsed());
    let (found, late) = with_alarm(left, cancel, || find_route(game, limits, cancel));
    let outcome = match found {
        Some(route) => outcome.with_route(route),
        None => outcome,
    };
    Timed {
        outcome,
        timed_out: timed_out || late,
    }
}

/// Runs `work` with `cancel` set after `after` unless it returns first;
/// returns its result and whether the alarm went off.
fn with_alarm<T>(after: Duration, cancel: &AtomicBool, work: impl FnOnce() -> T) -> (T, bool) {
    let done = Done::default();
    let rang = AtomicBool::new(false);
    std::thread::scope(|scope| {
        scope.spawn(|| {
            if !done.wait(after) {
                rang.store(true, Ordering::SeqCst);
                cancel.store(true, Ordering::SeqCst);
            }
        });
        // Rung when `work` returns or unwinds, so the alarm's thread never
        // outlives it by the rest of its wait.
        let finished = Finished(&done);
        let out = work();
        drop(finished);
        (out, rang.load(Ordering::SeqCst))
    })
}

/// Whether the work an alarm watches has finished, and the bell its thread
/// waits on.
#[derive(Default)]
struct Done {
    finished: Mutex<bool>,
    bell: Condvar,
}

impl Done {
    /// Waits up to `after` for the work to finish; whether it did.
    fn wait(&self, after: Duration) -> bool {
        let guard = self.finished.lock().unwrap_or_else(PoisonError::into_inner);
        let (guard, _) = self
            .bell
            .wait_timeout_while(guard, after, |finished| !*finished)
            .unwrap_or_else(PoisonError::into_inner);
        *guard
    }
}

/// Marks its [`Done`] finished when dropped.
struct Finished<'a>(&'a Done);

impl Drop for Finished<'_> {
    fn drop(&mut self) {
        *self
            .0
            .finished
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = true;
        self.0.bell.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::testkit;
    use crate::solver::Verdict;
    use crate::solver::level::{LevelSpace, search_level};

    /// Nine rocks loose in an open room: more states than any clock here
    /// lets the exact search see, with the flag far away.
    const OPEN: &str = "MIAU IS YOU . ROCK IS PUSH . FLAG IS WIN . . . . . .\n\
                        . m . . . . . . . . . . . . . . . .\n\
                        . . . r . . . r . . . . . . . . . .\n\
                        . . r . . . r . . . r . . . . . . .\n\
                        . . . r . . . . . r . . . . . . . .\n\
                        . . . . . . . . . . . . . . . r . .\n\
                        . . . . . . . . . . . . . . . . . f";

    fn on_clock(board: &str, clock: Duration, constraints: Constraints) -> Timed {
        let game = Game::new(&testkit::level(board));
        let cancel = AtomicBool::new(false);
        let limits = Limits::default();
        search_level_on_clock(&game, constraints, limits, clock, 1, &cancel, &mut |_| {})
    }

    /// A clock of nothing stops the exact search and leaves the passes
    /// after it no time either: no route (the room has no flag), and the
    /// clock named.
    #[test]
    fn a_clock_of_nothing_stops_both_parts() {
        let flagless = OPEN.replace(" f", " .");
        let timed = on_clock(&flagless, Duration::ZERO, Constraints::default());
        assert_eq!(timed.outcome.verdict, Verdict::Cancelled);
        assert!(timed.timed_out);
    }

    /// A level decided well inside its clock gets exactly the search
    /// without one, and no word of the clock.
    #[test]
    fn a_level_decided_in_time_is_the_search_without_a_clock() {
        let board = "MIAU IS YOU . FLAG IS WIN\n. m . . r . f";
        let timed = on_clock(board, Duration::from_secs(600), Constraints::default());
        let game = Game::new(&testkit::level(board));
        let cancel = AtomicBool::new(false);
        let plain = search_level(
            &game,
            Constraints::default(),
            Limits::default(),
            1,
            &cancel,
            &mut |_| {},
        );
        assert!(!timed.timed_out);
        assert_eq!(timed.outcome.verdict, plain.verdict);
        assert_eq!(
            (timed.outcome.expanded, timed.outcome.stored),
            (plain.expanded, plain.stored)
        );
    }

    /// A clock that stops the exact search still ends in a route the
    /// engine replays to a win, bounded, not proven.
    #[test]
    fn a_stopped_search_is_decided_by_a_route() {
        let timed = on_clock(OPEN, Duration::from_secs(2), Constraints::default());
        assert!(timed.timed_out);
        let Verdict::Solved { route, shortest } = &timed.outcome.verdict else {
            panic!("{:?}", timed.outcome.verdict);
        };
        assert!(matches!(shortest, crate::solver::Shortest::Bounded { .. }));
        let game = Game::new(&testkit::level(OPEN));
        assert!(LevelSpace::new(&game, Constraints::default()).wins(route));
    }

    /// Only the plain solve gets passes after the exact search: a route
    /// that ignores a constraint proves nothing about it.
    #[test]
    fn a_constrained_search_gets_no_passes_after_it() {
        let frozen = Constraints {
            words_frozen: true,
            ..Constraints::default()
        };
        let timed = on_clock(OPEN, Duration::from_millis(300), frozen);
        assert!(timed.timed_out);
        assert_eq!(timed.outcome.verdict, Verdict::Cancelled);
    }

    /// The alarm stops work that outlasts it and leaves alone work that
    /// doesn't (nor the flag).
    #[test]
    fn the_alarm_rings_only_past_its_time() {
        let cancel = AtomicBool::new(false);
        let ((), rang) = with_alarm(Duration::from_secs(600), &cancel, || ());
        assert!(!rang);
        assert!(!cancel.load(Ordering::SeqCst));
        let (spins, rang) = with_alarm(Duration::from_millis(20), &cancel, || {
            let mut spins = 0_u64;
            while !cancel.load(Ordering::SeqCst) {
                spins += 1;
                std::thread::yield_now();
            }
            spins
        });
        assert!(rang && spins > 0);
    }
}

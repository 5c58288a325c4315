//! One memory cap for a whole `check` run, shared by its parallel searches.
//!
//! Each level of a run holds a *ticket* whose priority is its position in
//! level order. A search draws on the pool as it grows (at the checkpoints
//! where it already measured itself against a per-search cap, every 1024
//! expansions): the pool grants the growth when the grants of all tickets
//! stay within the cap. When they wouldn't:
//!
//! - the **earliest** unfinished ticket never waits for long: it marks the
//!   latest tickets that hold memory for eviction (latest first) until what
//!   they hold covers its need, and waits for them to let go;
//! - any **other** ticket waits until the memory is there, or until it is
//!   the earliest itself;
//! - an evicted ticket's search stops at its next checkpoint (or at once if
//!   it is waiting) and gives its memory back; its level is checked again
//!   from the start once the ticket is the earliest or the memory it had is
//!   free again.
//!
//! Why this is deadlock-free: the earliest ticket can take the memory of
//! every other ticket, so it always proceeds until it finishes or needs
//! more than the whole cap; then the next one is the earliest. Why verdicts
//! are those of `--jobs 1`: a search is deterministic, an evicted one is run
//! again from scratch, and a search ends in LIMIT (memory) only when it needs
//! more than the whole cap on its own ([`Answer::OverCap`]), which is exactly
//! when a single search with that cap would. The state budget, a count, stays
//! the budget that decides verdicts; the memory cap is a safety net.
//!
//! Every search of a level draws on it, one after another: the exact
//! searches ([`super::memory_allows`]), the satisficing passes and the
//! shortening of their route ([`super::pass_may_hold`]), each starting
//! from nothing ([`search_starts`]) since the one before has freed its
//! tables.
//!
//! The pool reaches the search through a thread-local ticket ([`enter`]), so
//! the solver's signature stays that of a lone search: a search with no
//! ticket (`solve`, the editor) keeps its own per-search cap.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Duration;

/// The pool's answer to a search that has grown to some number of bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    /// Go on: the growth is granted.
    Granted,
    /// More than the whole cap: the search ends in LIMIT (memory).
    OverCap,
    /// Another level needs the memory: stop, the level is checked again later.
    Evicted,
}

#[derive(Debug, Default)]
struct State {
    /// Bytes granted to each live ticket, by priority.
    granted: BTreeMap<usize, usize>,
    /// Tickets asked to give their memory back.
    evict: BTreeSet<usize>,
    /// Tickets whose search stopped on eviction, with what they held then.
    evicted: BTreeMap<usize, usize>,
    /// The largest total of grants ever held (for tests and reports).
    peak: usize,
}

impl State {
    fn total(&self) -> usize {
        self.granted.values().sum()
    }

    fn earliest(&self) -> Option<usize> {
        self.granted.keys().next().copied()
    }
}

/// A memory cap shared by the searches of one run.
#[derive(Debug)]
pub struct Pool {
    cap: usize,
    state: Mutex<State>,
    changed: Condvar,
}

impl Pool {
    /// A pool of `cap` bytes.
    pub fn new(cap: usize) -> Arc<Pool> {
        Arc::new(Pool {
            cap,
            state: Mutex::new(State::default()),
            changed: Condvar::new(),
        })
    }

    /// The cap, in bytes.
    pub fn cap(&self) -> usize {
        self.cap
    }

    /// The largest total the grants ever reached: never above [`Pool::cap`].
    pub fn peak(&self) -> usize {
        self.lock().peak
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Waits for a change, with a timeout so that a missed wake-up costs a
    /// few milliseconds rather than the run.
    fn wait<'a>(&self, g: MutexGuard<'a, State>) -> MutexGuard<'a, State> {
        match self.changed.wait_timeout(g, Duration::from_millis(20)) {
            Ok((g, _)) => g,
            Err(e) => e.into_inner().0,
        }
    }

    /// Registers the level at `priority` (its position in level order) with
    /// nothing granted; [`Pool::leave`] ends it.
    pub fn join(&self, priority: usize) {
        let mut g = self.lock();
        g.granted.insert(priority, 0);
        g.evict.remove(&priority);
        g.evicted.remove(&priority);
    }

    /// The level at `priority` is done: its memory goes back to the pool.
    pub fn leave(&self, priority: usize) {
        let mut g = self.lock();
        g.granted.remove(&priority);
        g.evict.remove(&priority);
        g.evicted.remove(&priority);
        drop(g);
        self.changed.notify_all();
    }

    /// A new search of the level starts: the previous one's memory is free.
    pub fn restart(&self, priority: usize) {
        let mut g = self.lock();
        if let Some(b) = g.granted.get_mut(&priority) {
            *b = 0;
        }
        drop(g);
        self.changed.notify_all();
    }

    /// Whether a search of the level stopped on eviction: the caller then
    /// checks the level again, after [`Pool::wait_to_restart`].
    pub fn take_evicted(&self, priority: usize) -> bool {
        self.lock().evicted.contains_key(&priority)
    }

    /// Blocks an evicted level until it may run again: it is the earliest,
    /// or what it held when evicted is free again.
    pub fn wait_to_restart(&self, priority: usize) {
        let mut g = self.lock();
        loop {
            let held = g.evicted.get(&priority).copied().unwrap_or(0);
            let free = self.cap.saturating_sub(g.total());
            if g.earliest() == Some(priority) || (g.evict.is_empty() && free >= held) {
                g.evicted.remove(&priority);
                g.evict.remove(&priority);
                return;
            }
            g = self.wait(g);
        }
    }

    /// The search of the level at `priority` now holds `used` bytes.
    pub fn reserve(&self, priority: usize, used: usize) -> Answer {
        let mut g = self.lock();
        loop {
            if g.evicted.contains_key(&priority) {
                // Evicted earlier in this check of the level: its later
                // searches stop too, until the level starts again.
                return Answer::Evicted;
            }
            if g.evict.contains(&priority) {
                let held = g.granted.insert(priority, 0).unwrap_or(0);
                g.evict.remove(&priority);
                g.evicted.insert(priority, held.max(used));
                drop(g);
                self.changed.notify_all();
                return Answer::Evicted;
            }
            let have = g.granted.get(&priority).copied().unwrap_or(0);
            if used <= have {
                return Answer::Granted;
            }
            if used > self.cap {
                return Answer::OverCap;
            }
            let others = g.total() - have;
            if others + used <= self.cap {
                g.granted.insert(priority, used);
                g.peak = g.peak.max(others + used);
                return Answer::Granted;
            }
            if g.earliest() == Some(priority) {
                // Evict the latest holders until what they hold (with what is
                // free) covers the need; those already asked count too.
                let mut short = others + used - self.cap;
                let asked: usize = g.evict.iter().filter_map(|p| g.granted.get(p)).sum();
                short = short.saturating_sub(asked);
                let victims: Vec<usize> = g
                    .granted
                    .iter()
                    .rev()
                    .filter(|&(&p, &b)| p != priority && b > 0 && !g.evict.contains(&p))
                    .scan(short, |left, (&p, &b)| {
                        (*left > 0).then(|| {
                            *left = left.saturating_sub(b);
                            p
                        })
                    })
                    .collect();
                g.evict.extend(victims);
                self.changed.notify_all();
            }
            g = self.wait(g);
        }
    }
}

thread_local! {
    /// The pool and ticket of the level this thread is checking, if any.
    static TICKET: RefCell<Option<(Arc<Pool>, usize)>> = const { RefCell::new(None) };
}

/// Makes this thread's searches draw on `pool` as the level at `priority`,
/// until the returned guard is dropped (which also [`Pool::leave`]s).
pub fn enter(pool: &Arc<Pool>, priority: usize) -> Entered {
    pool.join(priority);
    TICKET.with(|t| *t.borrow_mut() = Some((Arc::clone(pool), priority)));
    Entered {
        pool: Arc::clone(pool),
        priority,
    }
}

/// This thread's ticket: leaves the pool when dropped.
#[derive(Debug)]
pub struct Entered {
    pool: Arc<Pool>,
    priority: usize,
}

impl Drop for Entered {
    fn drop(&mut self) {
        TICKET.with(|t| *t.borrow_mut() = None);
        self.pool.leave(self.priority);
    }
}

/// For the solver: the pool's answer to this thread's search now holding
/// `used` bytes, or `None` when the thread has no ticket.
pub(crate) fn reserve(used: usize) -> Option<Answer> {
    TICKET.with(|t| {
        t.borrow()
            .as_ref()
            .map(|(pool, priority)| pool.reserve(*priority, used))
    })
}

/// For the solver: a search starts on this thread (the previous one of the
/// same level has ended, so its memory is free).
pub(crate) fn search_starts() {
    TICKET.with(|t| {
        if let Some((pool, priority)) = t.borrow().as_ref() {
            pool.restart(*priority);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// A stand-in for a level's search: grows to `need` bytes in steps of
    /// `step`, as the solver's checkpoints do; `true` when it finished,
    /// `false` for LIMIT (memory).
    fn search(pool: &Pool, priority: usize, need: usize, step: usize) -> Option<bool> {
        pool.restart(priority);
        let mut used = 0;
        while used < need {
            used = (used + step).min(need);
            match pool.reserve(priority, used) {
                Answer::Granted => {}
                Answer::OverCap => return Some(false),
                Answer::Evicted => return None,
            }
            std::thread::yield_now();
        }
        Some(true)
    }

    /// Runs the levels' needs on `threads` threads as `check_levels` does:
    /// the verdicts in level order and the number of evictions.
    fn run(cap: usize, needs: &[usize], threads: usize) -> (Vec<bool>, usize, usize) {
        let pool = Pool::new(cap);
        let next = AtomicUsize::new(0);
        let evictions = AtomicUsize::new(0);
        let verdicts: Vec<Mutex<Option<bool>>> = needs.iter().map(|_| Mutex::new(None)).collect();
        std::thread::scope(|s| {
            for _ in 0..threads {
                s.spawn(|| {
                    loop {
                        let k = next.fetch_add(1, Ordering::Relaxed);
                        let Some(&need) = needs.get(k) else { break };
                        let _t = enter(&pool, k);
                        let v = loop {
                            // Two searches per level, like a level's check.
                            let first = search(&pool, k, need, 1000);
                            let second = first.and_then(|_| search(&pool, k, need / 2, 700));
                            if !pool.take_evicted(k) {
                                break first.zip(second).map(|(a, b)| a && b);
                            }
                            evictions.fetch_add(1, Ordering::Relaxed);
                            pool.wait_to_restart(k);
                        };
                        *verdicts[k].lock().unwrap() = v;
                    }
                });
            }
        });
        let v = verdicts
            .into_iter()
            .map(|m| {
                m.into_inner()
                    .unwrap()
                    .expect("a level that wasn't evicted has a verdict")
            })
            .collect();
        (v, pool.peak(), evictions.into_inner())
    }

    #[test]
    fn the_total_stays_under_the_cap_and_verdicts_are_those_of_one_thread() {
        let cap = 50_000;
        let needs: Vec<usize> = (0..24)
            .map(|i| [12_000, 30_000, 49_000, 60_000, 5_000, 41_000][i % 6] + i * 37)
            .collect();
        let (alone, peak1, _) = run(cap, &needs, 1);
        // One thread: LIMIT exactly where a level needs more than the cap.
        let expected: Vec<bool> = needs.iter().map(|&n| n <= cap).collect();
        assert_eq!(alone, expected);
        assert!(peak1 <= cap);
        for threads in [2, 4, 8] {
            for _ in 0..3 {
                let (v, peak, _) = run(cap, &needs, threads);
                assert_eq!(v, expected, "{threads} threads");
                assert!(
                    peak <= cap,
                    "{threads} threads: {peak} bytes granted at once, cap {cap}"
                );
            }
        }
    }

    #[test]
    fn levels_that_each_nearly_fill_the_cap_all_finish() {
        // Each level alone nearly fills the cap: with four threads, later
        // levels may hold memory the earliest needs (whether they do depends
        // on the scheduler; the next test forces it).
        let (v, peak, _) = run(10_000, &[9_000; 8], 4);
        assert!(v.iter().all(|&ok| ok));
        assert!(peak <= 10_000);
    }

    #[test]
    fn the_earliest_level_takes_memory_from_later_ones() {
        // Level 1 holds most of the cap before level 0 asks: level 0 waits
        // while level 1 is asked to give its memory back, then gets it.
        let pool = Pool::new(10_000);
        pool.join(0);
        pool.join(1);
        assert_eq!(pool.reserve(1, 9_000), Answer::Granted);
        std::thread::scope(|s| {
            let earliest = s.spawn(|| pool.reserve(0, 9_000));
            let start = std::time::Instant::now();
            // Level 1's next checkpoint is told to stop once level 0 asked.
            while pool.reserve(1, 9_000) != Answer::Evicted {
                assert!(
                    start.elapsed() < std::time::Duration::from_secs(30),
                    "level 1 was never evicted"
                );
                std::thread::yield_now();
            }
            assert_eq!(earliest.join().unwrap(), Answer::Granted);
        });
        assert!(pool.take_evicted(1));
        assert!(pool.peak() <= 10_000);
    }

    #[test]
    fn a_search_without_a_ticket_has_no_pool() {
        assert_eq!(reserve(1 << 40), None);
    }
}

//! One layer of the breadth-first search on several threads: the others
//! expand units ahead and encode the next layer's segments while this
//! thread merges the units in layer order.

use super::frontier::{Frontier, Layer};
use super::{CHUNK_BUFFERS, Chunk, Outcome, Run, Space, due, encode, expand};
use crossbeam_utils::CachePadded;
use std::sync::Arc;

/// Chunks expanded ahead of the merge, per thread: enough that a thread
/// rarely waits for the merge, few enough that the chunks' buffers stay a
/// few megabytes. (With three, the thread that isn't merging waited for a
/// full window about 15% of a search; six measured faster on two cores.)
const AHEAD: usize = 6;

/// What the threads of [`parallel_layer`] share, under one lock.
///
/// Chunks stay with the thread that expanded them: it encodes their
/// segment once merged, and its spare buffers are its own, so a chunk's
/// words (a few hundred kilobytes) are written and read again in one
/// core's cache. Only the merge, which reads a chunk's successors and
/// fingerprints, crosses cores.
#[derive(Default)]
struct Shared {
    /// Units taken for expansion.
    taken: usize,
    /// Units merged.
    merged: usize,
    /// Per thread (0 the merging one): merged chunks it expanded, waiting
    /// to be encoded, with their unit.
    jobs: Vec<std::collections::VecDeque<(usize, Chunk)>>,
    /// Encoded segments not yet counted, by unit.
    encoded: std::collections::BTreeMap<usize, Option<Layer>>,
    /// Per thread: chunk buffers to reuse.
    spare: Vec<Vec<Chunk>>,
    /// Chunk buffers made this layer: at most [`CHUNK_BUFFERS`], whatever
    /// the number of threads, since every search counts that many.
    buffers: usize,
    /// The layer is over (or the search ended): the workers return.
    stop: bool,
}

/// Work a thread of [`parallel_layer`] takes.
enum Work {
    /// Encode a merged chunk's new successors.
    Encode(usize, Chunk),
    /// Expand a unit into this buffer.
    Expand(usize, Chunk),
}

impl Shared {
    /// For `threads` threads.
    fn new(threads: usize) -> Shared {
        Shared {
            jobs: (0..threads).map(|_| Default::default()).collect(),
            spare: (0..threads).map(|_| Vec::new()).collect(),
            ..Shared::default()
        }
    }

    /// Work for thread `me`: its own encoding first (the merge is waiting
    /// to count it), else the next unit to expand when within `window`
    /// units of the merge, else another thread's encoding.
    fn take(&mut self, me: usize, units: usize, window: usize) -> Option<Work> {
        if let Some((u, chunk)) = self.jobs[me].pop_front() {
            return Some(Work::Encode(u, chunk));
        }
        if self.taken < units
            && self.taken < self.merged + window
            && let Some(mut chunk) = self.buffer(me)
        {
            let u = self.taken;
            self.taken += 1;
            chunk.by = me;
            return Some(Work::Expand(u, chunk));
        }
        self.oldest_job().map(|(u, chunk)| Work::Encode(u, chunk))
    }

    /// A chunk buffer for thread `me`: one of its own, else a new one while
    /// fewer than [`CHUNK_BUFFERS`] exist, else another thread's spare;
    /// `None` when every buffer is in use (one comes back once encoded).
    fn buffer(&mut self, me: usize) -> Option<Chunk> {
        if let Some(chunk) = self.spare[me].pop() {
            return Some(chunk);
        }
        if self.buffers < CHUNK_BUFFERS {
            self.buffers += 1;
            return Some(Chunk::default());
        }
        self.spare.iter_mut().find_map(Vec::pop)
    }

    /// The merged chunk waiting longest to be encoded, whoever expanded it.
    fn oldest_job(&mut self) -> Option<(usize, Chunk)> {
        let queue = self
            .jobs
            .iter_mut()
            .filter(|q| !q.is_empty())
            .min_by_key(|q| q.front().map_or(usize::MAX, |j| j.0))?;
        queue.pop_front()
    }
}

/// Encodes `chunk`'s segment for unit `u` and files it; the buffer goes
/// back to be reused.
fn encode_job(
    shared: &(std::sync::Mutex<Shared>, std::sync::Condvar),
    base: &Arc<[u32]>,
    u: usize,
    chunk: Chunk,
) {
    let segment = encode(&chunk, base);
    if let Ok(mut g) = shared.0.lock() {
        g.encoded.insert(u, segment);
        if let Some(spare) = g.spare.get_mut(chunk.by) {
            spare.push(chunk);
        }
    }
    shared.1.notify_all();
}

/// One layer on `workers.len()` threads, this one included. The others
/// each take the oldest merged chunk they expanded to encode, else the
/// next unit not yet taken (at most [`AHEAD`] per thread beyond the
/// merge), else another thread's merged chunk to encode ([`Shared::take`]),
/// and hand what they made over. This thread merges the units in order and counts
/// their segments as [`due`] says; whenever the next unit to merge is not
/// ready it encodes or expands itself rather than wait, so `jobs` threads
/// keep `jobs` cores busy. Returns the outcome when the search ends
/// within the layer.
pub(super) fn parallel_layer<S: Space + Send>(
    workers: &mut [CachePadded<S>],
    frontier: &Frontier,
    first: u32,
    last: bool,
    base: &Arc<[u32]>,
    run: &mut Run<'_>,
) -> Option<Outcome> {
    use std::sync::{Condvar, Mutex, mpsc};
    let units = frontier.units();
    let window = AHEAD * workers.len();
    let shared = (Mutex::new(Shared::new(workers.len())), Condvar::new());
    let (tx, rx) = mpsc::channel::<(usize, Chunk)>();
    let (own, others) = workers.split_first_mut()?;
    std::thread::scope(|scope| {
        for (me, worker) in (1..).zip(others.iter_mut()) {
            let tx = tx.clone();
            let shared = &shared;
            scope.spawn(move || {
                loop {
                    let work = {
                        let Ok(mut g) = shared.0.lock() else { return };
                        loop {
                            if g.stop {
                                return;
                            }
                            if let Some(work) = g.take(me, units, window) {
                                break work;
                            }
                            let Ok(next) = shared.1.wait(g) else { return };
                            g = next;
                        }
                    };
                    match work {
                        Work::Encode(u, chunk) => encode_job(shared, base, u, chunk),
                        Work::Expand(u, mut chunk) => {
                            expand(&**worker, frontier, u, last, &mut chunk);
                            if tx.send((u, chunk)).is_err() {
                                return;
                            }
                        }
                    }
                }
            });
        }
        drop(tx);
        let mut pending: Vec<Option<Chunk>> = (0..window).map(|_| None).collect();
        let mut m = 0usize;
        let mut ended = None;
        loop {
            // Count the segments due before unit m is merged (every merged
            // one once the search has ended): filed ones, else encode one
            // waiting, else wait for a thread encoding it.
            let target = if ended.is_some() { m } else { due(m, units) };
            if run.counted < target {
                let k = run.counted;
                let Ok(mut g) = shared.0.lock() else { break };
                if let Some(segment) = g.encoded.remove(&k) {
                    drop(g);
                    run.count(segment);
                } else if let Some((u, chunk)) = g.oldest_job() {
                    drop(g);
                    encode_job(&shared, base, u, chunk);
                } else if shared.1.wait(g).is_err() {
                    break;
                }
                continue;
            }
            if m == units || ended.is_some() {
                break;
            }
            if let Some(mut chunk) = pending[m % window].take() {
                ended = run.merge(&mut chunk, first + frontier.unit_start(m), frontier);
                frontier.release_through(m);
                m += 1;
                if let Ok(mut g) = shared.0.lock() {
                    g.merged = m;
                    if let Some(queue) = g.jobs.get_mut(chunk.by) {
                        queue.push_back((m - 1, chunk));
                    }
                }
                shared.1.notify_all();
                continue;
            }
            // The next unit to merge is not ready: take what has arrived,
            // else encode or expand (within the window, so its slot is
            // free), else wait for it.
            if let Ok((u, chunk)) = rx.try_recv() {
                pending[u % window] = Some(chunk);
                continue;
            }
            let work = shared
                .0
                .lock()
                .ok()
                .and_then(|mut g| g.take(0, units, window));
            match work {
                Some(Work::Encode(u, chunk)) => encode_job(&shared, base, u, chunk),
                Some(Work::Expand(u, mut chunk)) => {
                    expand(&**own, frontier, u, last, &mut chunk);
                    pending[u % window] = Some(chunk);
                }
                None => {
                    let Ok((u, chunk)) = rx.recv() else { break };
                    pending[u % window] = Some(chunk);
                }
            }
        }
        if let Ok(mut g) = shared.0.lock() {
            g.stop = true;
        }
        shared.1.notify_all();
        ended.map(|out| run.ended(out, frontier))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// However many threads a layer has, it makes at most
    /// [`CHUNK_BUFFERS`] chunk buffers, which every search counts: once
    /// all are in use no thread expands, and a thread without a spare of
    /// its own takes another's before a new one is made.
    #[test]
    fn a_layer_makes_at_most_its_counted_chunk_buffers() {
        let threads = CHUNK_BUFFERS + 3;
        let (units, window) = (100, 100);
        let mut shared = Shared::new(threads);
        let mut taken: Vec<Chunk> = (0..threads)
            .filter_map(|me| match shared.take(me, units, window) {
                Some(Work::Expand(_, chunk)) => Some(chunk),
                _ => None,
            })
            .collect();
        assert_eq!(taken.len(), CHUNK_BUFFERS);
        assert!(shared.take(0, units, window).is_none());
        let back = taken.pop().expect("a buffer");
        shared.spare[back.by].push(back);
        assert!(matches!(
            shared.take(threads - 1, units, window),
            Some(Work::Expand(_, _))
        ));
        assert_eq!(shared.buffers, CHUNK_BUFFERS);
    }

    /// Work of a two-thread layer of four units, at most two ahead of the
    /// merge: each thread encodes the chunks it expanded before anything else,
    /// another thread's only when it has nothing else, and a buffer goes back
    /// to the thread that expanded into it.
    #[test]
    fn chunks_stay_with_the_thread_that_expanded_them() {
        let (units, window) = (4, 2);
        let mut shared = Shared::new(2);
        let Some(Work::Expand(0, first)) = shared.take(1, units, window) else {
            panic!("thread 1 expands unit 0");
        };
        let Some(Work::Expand(1, second)) = shared.take(0, units, window) else {
            panic!("thread 0 expands unit 1");
        };
        assert_eq!((first.by, second.by), (1, 0));
        assert!(
            shared.take(1, units, window).is_none(),
            "unit 2 is beyond the window and nothing is merged"
        );
        // Both merged: each chunk waits for its own thread.
        shared.merged = 2;
        shared.jobs[first.by].push_back((0, first));
        shared.jobs[second.by].push_back((1, second));
        assert!(
            matches!(shared.take(0, units, window), Some(Work::Encode(1, _))),
            "thread 0 encodes its own chunk, not the older one of thread 1"
        );
        let Some(Work::Expand(2, third)) = shared.take(0, units, window) else {
            panic!("with its own encoded, thread 0 expands the next unit");
        };
        assert_eq!(third.by, 0);
        let Some(Work::Expand(3, _)) = shared.take(0, units, window) else {
            panic!("thread 0 expands the last unit");
        };
        let Some(Work::Encode(0, chunk)) = shared.take(0, units, window) else {
            panic!("with nothing else to do, thread 0 encodes thread 1's chunk");
        };
        // Encoded, the buffer goes back to thread 1, which expanded into it.
        let lock = (std::sync::Mutex::new(shared), std::sync::Condvar::new());
        let base: Arc<[u32]> = vec![0u32].into();
        encode_job(&lock, &base, 0, chunk);
        let shared = lock.0.into_inner().expect("not poisoned");
        assert_eq!((shared.spare[0].len(), shared.spare[1].len()), (0, 1));
        assert!(shared.encoded.contains_key(&0));
    }
}

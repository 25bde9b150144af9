//! How the ranks of a distributed analysis talk: every rank calls each collective in
//! the same order (an all-to-all exchange of words, a sum, a maximum), as MPI's
//! collectives are called. `InProcess` runs the ranks as threads of one process, for
//! tests and for one machine's cores.

use std::sync::{Arc, Barrier, Mutex, PoisonError};

/// The collectives the analysis needs. Every rank calls them in the same order.
pub trait Transport: Sync {
    /// This rank's number, from 0.
    fn rank(&self) -> usize;
    /// How many ranks take part.
    fn ranks(&self) -> usize;
    /// Sends `outgoing[k]` to rank `k` (one buffer for each rank, this one's included)
    /// and returns what each rank sent to this one, by rank.
    fn exchange(&self, outgoing: Vec<Vec<u64>>) -> Vec<Vec<u64>>;
    /// The sum of every rank's `value` (wrapping), on every rank.
    fn sum(&self, value: u64) -> u64;
    /// The largest of every rank's `value`, on every rank.
    fn max(&self, value: u64) -> u64;
}

/// What the threads of one in-process group share.
struct Shared {
    ranks: usize,
    /// `mail[to][from]`: a buffer on its way.
    mail: Mutex<Vec<Vec<Vec<u64>>>>,
    values: Mutex<Vec<u64>>,
    barrier: Barrier,
}

/// One rank of a group of threads.
pub struct InProcess {
    rank: usize,
    shared: Arc<Shared>,
}

impl InProcess {
    /// The ranks of a group of `ranks` (at least 1), one for each thread.
    pub fn group(ranks: usize) -> Vec<InProcess> {
        let ranks = ranks.max(1);
        let shared = Arc::new(Shared {
            ranks,
            mail: Mutex::new(vec![vec![Vec::new(); ranks]; ranks]),
            values: Mutex::new(vec![0; ranks]),
            barrier: Barrier::new(ranks),
        });
        (0..ranks)
            .map(|rank| InProcess {
                rank,
                shared: shared.clone(),
            })
            .collect()
    }

    /// Every rank's `value`, once all have given theirs.
    fn gather(&self, value: u64) -> Vec<u64> {
        lock(&self.shared.values)[self.rank] = value;
        self.shared.barrier.wait();
        let values = lock(&self.shared.values).clone();
        // (No rank writes the next value before every rank has read this one.)
        self.shared.barrier.wait();
        values
    }
}

/// The data behind a lock (a rank that panicked leaves nothing half written here: each
/// write is one assignment).
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Transport for InProcess {
    fn rank(&self) -> usize {
        self.rank
    }

    fn ranks(&self) -> usize {
        self.shared.ranks
    }

    fn exchange(&self, outgoing: Vec<Vec<u64>>) -> Vec<Vec<u64>> {
        assert_eq!(
            outgoing.len(),
            self.shared.ranks,
            "one buffer for each rank"
        );
        {
            let mut mail = lock(&self.shared.mail);
            for (to, buffer) in outgoing.into_iter().enumerate() {
                mail[to][self.rank] = buffer;
            }
        }
        self.shared.barrier.wait();
        let empty = vec![Vec::new(); self.shared.ranks];
        let mine = std::mem::replace(&mut lock(&self.shared.mail)[self.rank], empty);
        // (No rank writes the next exchange's buffers before every rank has taken these.)
        self.shared.barrier.wait();
        mine
    }

    fn sum(&self, value: u64) -> u64 {
        self.gather(value)
            .into_iter()
            .fold(0, |sum, v| sum.wrapping_add(v))
    }

    fn max(&self, value: u64) -> u64 {
        self.gather(value).into_iter().max().unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_rank_receives_what_every_rank_sent_it() {
        let group = InProcess::group(3);
        let received: Vec<Vec<Vec<u64>>> = std::thread::scope(|scope| {
            let runs: Vec<_> = group
                .iter()
                .map(|t| {
                    scope.spawn(move || {
                        let mut last = Vec::new();
                        for round in 0..3u64 {
                            let out = (0..3)
                                .map(|to| vec![t.rank() as u64 * 10 + to + round * 100])
                                .collect();
                            last = t.exchange(out);
                            assert_eq!(t.sum(t.rank() as u64 + round), 3 + 3 * round);
                            assert_eq!(t.max(t.rank() as u64), 2);
                        }
                        last
                    })
                })
                .collect();
            runs.into_iter().map(|r| r.join().unwrap()).collect()
        });
        for (to, got) in received.iter().enumerate() {
            let expected: Vec<Vec<u64>> = (0..3)
                .map(|from| vec![from * 10 + to as u64 + 200])
                .collect();
            assert_eq!(got, &expected);
        }
    }
}

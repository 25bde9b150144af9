//! How the ranks of a distributed analysis talk: every rank calls each collective in
//! the same order (an all-to-all exchange of words, a sum, a maximum), as MPI's
//! collectives are called. `InProcess` runs the ranks as threads of one process, for
//! tests and for one machine's cores; `Mpi` (the `mpi` feature) the processes of an MPI
//! job.

use std::sync::{Arc, Condvar, Mutex, PoisonError};

/// The collectives the analysis needs. Every rank calls them in the same order.
pub trait Transport {
    /// This rank's number, from 0.
    fn rank(&self) -> usize;
    /// How many ranks take part.
    fn ranks(&self) -> usize;
    /// How many of them share this machine's memory, this one included.
    fn ranks_here(&self) -> usize;
    /// Sends `outgoing[k]` to rank `k` (one buffer for each rank, this one's included)
    /// and returns what each rank sent to this one, by rank.
    fn exchange(&self, outgoing: Vec<Vec<u64>>) -> Vec<Vec<u64>>;
    /// The sum of every rank's `value` (wrapping), on every rank.
    fn sum(&self, value: u64) -> u64;
    /// The largest of every rank's `value`, on every rank.
    fn max(&self, value: u64) -> u64;
}

/// Where the ranks of a group wait for each other; a rank that panics breaks it, and
/// every rank waiting there, or coming to it, panics too: none waits for ever.
struct Barrier {
    ranks: usize,
    state: Mutex<BarrierState>,
    turned: Condvar,
}

struct BarrierState {
    waiting: usize,
    generation: u64,
    broken: bool,
}

/// What a rank of a broken group says as it panics.
const BROKEN: &str = "another rank of the analysis failed";

impl Barrier {
    fn new(ranks: usize) -> Barrier {
        Barrier {
            ranks,
            state: Mutex::new(BarrierState {
                waiting: 0,
                generation: 0,
                broken: false,
            }),
            turned: Condvar::new(),
        }
    }

    fn wait(&self) {
        let mut state = lock(&self.state);
        let generation = state.generation;
        if !state.broken {
            state.waiting += 1;
            if state.waiting == self.ranks {
                state.waiting = 0;
                state.generation += 1;
                self.turned.notify_all();
                return;
            }
        }
        while state.generation == generation && !state.broken {
            state = self
                .turned
                .wait(state)
                .unwrap_or_else(PoisonError::into_inner);
        }
        if state.generation == generation {
            drop(state);
            panic!("{BROKEN}");
        }
    }

    fn break_off(&self) {
        lock(&self.state).broken = true;
        self.turned.notify_all();
    }
}

/// Breaks its rank's group if the rank panics while it is held (`InProcess::guard`).
pub(crate) struct PanicGuard<'a>(&'a Shared);

impl Drop for PanicGuard<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.barrier.break_off();
        }
    }
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
pub(crate) struct InProcess {
    rank: usize,
    shared: Arc<Shared>,
}

impl InProcess {
    /// The ranks of a group of `ranks` (at least 1), one for each thread.
    pub(crate) fn group(ranks: usize) -> Vec<InProcess> {
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

    /// Held by the thread that runs this rank: if it panics, the other ranks stop
    /// waiting for it (they panic too).
    pub(crate) fn guard(&self) -> PanicGuard<'_> {
        PanicGuard(&self.shared)
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

    fn ranks_here(&self) -> usize {
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

/// The processes of the MPI job this one was launched in (by `mpirun` or `srun`), one
/// rank each.
#[cfg(feature = "mpi")]
pub(crate) struct Mpi {
    world: mpi::topology::SimpleCommunicator,
    ranks_here: usize,
    // (Finalises MPI when dropped, after the communicator.)
    _universe: mpi::environment::Universe,
}

#[cfg(feature = "mpi")]
impl Mpi {
    /// The job's world, if this process was launched by an MPI launcher (its
    /// environment says so) and MPI starts.
    pub(crate) fn launched() -> Option<Mpi> {
        const LAUNCHERS: [&str; 4] = ["OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"];
        if !LAUNCHERS.iter().any(|v| std::env::var_os(v).is_some()) {
            return None;
        }
        use mpi::traits::Communicator;
        let universe = mpi::initialize()?;
        let world = universe.world();
        let ranks_here = world.split_shared(world.rank()).size() as usize;
        Some(Mpi {
            world,
            ranks_here,
            _universe: universe,
        })
    }
}

#[cfg(feature = "mpi")]
impl Transport for Mpi {
    fn rank(&self) -> usize {
        use mpi::traits::Communicator;
        self.world.rank() as usize
    }

    fn ranks(&self) -> usize {
        use mpi::traits::Communicator;
        self.world.size() as usize
    }

    fn ranks_here(&self) -> usize {
        self.ranks_here
    }

    fn exchange(&self, outgoing: Vec<Vec<u64>>) -> Vec<Vec<u64>> {
        use mpi::datatype::{Partition, PartitionMut};
        use mpi::traits::CommunicatorCollectives;
        let counts: Vec<i32> = outgoing.iter().map(|b| b.len() as i32).collect();
        let mut incoming = vec![0i32; counts.len()];
        self.world.all_to_all_into(&counts[..], &mut incoming[..]);
        let starts = |counts: &[i32]| -> Vec<i32> {
            counts
                .iter()
                .scan(0, |at, &c| {
                    let start = *at;
                    *at += c;
                    Some(start)
                })
                .collect()
        };
        let sent: Vec<u64> = outgoing.concat();
        let mut received = vec![0u64; incoming.iter().map(|&c| c as usize).sum()];
        let (send_starts, receive_starts) = (starts(&counts), starts(&incoming));
        {
            let send = Partition::new(&sent[..], &counts[..], &send_starts[..]);
            let mut receive =
                PartitionMut::new(&mut received[..], &incoming[..], &receive_starts[..]);
            self.world.all_to_all_varcount_into(&send, &mut receive);
        }
        receive_starts
            .iter()
            .zip(&incoming)
            .map(|(&start, &count)| received[start as usize..(start + count) as usize].to_vec())
            .collect()
    }

    fn sum(&self, value: u64) -> u64 {
        use mpi::collective::SystemOperation;
        use mpi::traits::CommunicatorCollectives;
        let mut total = 0u64;
        self.world
            .all_reduce_into(&value, &mut total, SystemOperation::sum());
        total
    }

    fn max(&self, value: u64) -> u64 {
        use mpi::collective::SystemOperation;
        use mpi::traits::CommunicatorCollectives;
        let mut most = 0u64;
        self.world
            .all_reduce_into(&value, &mut most, SystemOperation::max());
        most
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

    /// A rank that panics stops the others: those waiting in a collective panic too,
    /// where they would have waited for ever.
    #[test]
    fn a_rank_that_panics_stops_the_others() {
        let group = InProcess::group(3);
        let ended: Vec<bool> = std::thread::scope(|scope| {
            let runs: Vec<_> = group
                .iter()
                .map(|t| {
                    scope.spawn(move || {
                        let _guard = t.guard();
                        assert_eq!(t.sum(1), 3);
                        if t.rank() == 1 {
                            panic!("a fault of rank 1");
                        }
                        t.max(0)
                    })
                })
                .collect();
            runs.into_iter().map(|r| r.join().is_err()).collect()
        });
        assert_eq!(ended, [true, true, true]);
    }
}

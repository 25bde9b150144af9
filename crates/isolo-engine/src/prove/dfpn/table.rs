//! df-pn's table: both searches' positions, shared by their agents without locks
//! while they search, growing between epochs up to its limit.

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicU8, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard, RwLock, RwLockReadGuard};

use super::{DfpnState, Entry, Numbers};

/// A proof or disproof number that stands for infinity (the largest a slot holds).
pub(super) const INFINITE: u64 = (1 << data::NUMBER_BITS) - 1;

/// What a slot costs in memory, for a limit in megabytes: 16 bytes, its tag byte and a
/// quarter of its bucket's lock byte, and half again while the table doubles (the old
/// buckets and the new at once), rounded up.
pub const BYTES_PER_ENTRY: usize = 32;

/// Slots in a bucket (one cache line): a position may sit in any slot of its bucket.
const BUCKET_SLOTS: usize = 4;

/// A bucket: slots of two words, a checksum (the key mixed with the data) and the data.
#[repr(align(64))]
#[derive(Default)]
struct Bucket([[AtomicU64; 2]; BUCKET_SLOTS]);

/// Buckets a table starts with (1 MB): it doubles when a quarter full, up to its limit, so
/// a short proof touches little memory whatever `--hash` allows.
const FIRST_BUCKETS: usize = 1 << 14;

/// The table grows when more than 1 / this of its slots are in use: fuller, buckets
/// overflow (an entry is replaced) before the table is full.
const GROW_AT_FILL_DIVISOR: usize = 4;

/// Counters of agents at work, shared by positions whose hashes agree in their low
/// bits: a heuristic, so a shared counter costs only a less apt choice.
const WORKER_COUNTERS: usize = 1 << 16;

/// What a slot's data word holds: its kind (2 bits), the log of the positions expanded
/// under it (6 bits), then the proof and disproof numbers (28 bits each) or a proof's
/// rank (56 bits).
mod data {
    pub(super) const KIND_SHIFT: u32 = 62;
    pub(super) const UNSOLVED: u64 = 0;
    pub(super) const DISPROVEN: u64 = 1;
    pub(super) const PROVEN: u64 = 2;
    pub(super) const WORK_SHIFT: u32 = 56;
    pub(super) const WORK_MASK: u64 = 0x3f;
    pub(super) const NUMBER_BITS: u32 = 28;
    pub(super) const NUMBER_MASK: u64 = (1 << NUMBER_BITS) - 1;
    pub(super) const RANK_MASK: u64 = (1 << WORK_SHIFT) - 1;
}

/// A slot's content.
#[derive(Clone, Copy, Debug)]
pub(super) struct Slot {
    pub(super) numbers: Numbers,
    /// The proof's rank (0 unless proven).
    pub(super) proof_rank: u64,
    /// The bits of the count of positions expanded under it (`log_work`).
    log_work: u64,
}

impl Slot {
    fn to_data(self) -> u64 {
        let n = self.numbers;
        let (kind, body) = if n.proof == 0 {
            (data::PROVEN, self.proof_rank & data::RANK_MASK)
        } else if n.disproof == 0 {
            (data::DISPROVEN, 0)
        } else {
            // (Unsolved numbers stay under INFINITE, which is the mask.)
            let (proof, disproof) = (
                n.proof.min(data::NUMBER_MASK),
                n.disproof.min(data::NUMBER_MASK),
            );
            (data::UNSOLVED, (proof << data::NUMBER_BITS) | disproof)
        };
        (kind << data::KIND_SHIFT) | (self.log_work.min(data::WORK_MASK) << data::WORK_SHIFT) | body
    }

    fn from_data(word: u64) -> Slot {
        let log_work = (word >> data::WORK_SHIFT) & data::WORK_MASK;
        let (numbers, proof_rank) = match word >> data::KIND_SHIFT {
            data::PROVEN => (Numbers::PROVEN, word & data::RANK_MASK),
            data::DISPROVEN => (Numbers::DISPROVEN, 0),
            _ => (
                Numbers {
                    proof: (word >> data::NUMBER_BITS) & data::NUMBER_MASK,
                    disproof: word & data::NUMBER_MASK,
                },
                0,
            ),
        };
        Slot {
            numbers,
            proof_rank,
            log_work,
        }
    }

    /// Which slot of a full bucket goes first: unsolved before disproven before
    /// proven (`PROVEN_CLASS`), then the least work.
    fn replace_order(word: u64) -> (u64, u64) {
        let kind = word >> data::KIND_SHIFT;
        let class = if kind == data::PROVEN {
            PROVEN_CLASS
        } else {
            kind
        };
        (class, (word >> data::WORK_SHIFT) & data::WORK_MASK)
    }
}

/// A proof's class in `Slot::replace_order`: the last to go.
const PROVEN_CLASS: u64 = 2;

/// The bits `work` takes: 0 for none, 1 for 1, 2 for 2-3, 3 for 4-7...
fn log_work(work: u64) -> u64 {
    u64::from(64 - work.leading_zeros())
}

/// The least work of `log_work` bits.
fn work_of_log(log: u64) -> u64 {
    match log {
        0 => 0,
        l => 1 << (l - 1).min(62),
    }
}

/// A position's key in the table: its hash with the attacker in the top bit, so that
/// both searches share one table and a saved key tells whose it is.
fn table_key(hash: u64, side: usize) -> u64 {
    (hash & !(1 << 63)) | ((side as u64) << 63)
}

/// Agents waiting for the table to grow.
#[derive(Default)]
struct Rendezvous {
    /// Agents still searching.
    active: usize,
    /// Of them, those waiting.
    waiting: usize,
    /// Growths so far: a waiting agent goes on when it changes.
    epoch: u64,
}

/// The table of both searches, shared by their agents: reads take no lock. A slot is
/// written word by word, and its first word is the key mixed with the data, so a slot
/// read while another agent writes it does not check and reads as absent (lost work,
/// never another position's numbers).
/// It grows between searches' epochs: the agents return to the root and wait while one
/// rehashes it (the lock is taken once an epoch, not at each look).
pub(super) struct Table {
    slots: RwLock<Slots>,
    /// Buckets at most.
    pub(super) max_buckets: usize,
    /// Slots in use.
    filled: AtomicUsize,
    /// Set when a quarter of the slots are in use and the table may grow.
    pub(super) grow_wanted: AtomicBool,
    rendezvous: Mutex<Rendezvous>,
    wake: Condvar,
    /// The last proof's rank. Ranks come from one counter, so a proof stored after its
    /// children's (which it read) ranks above them.
    proofs: AtomicU64,
    /// Agents whose current path holds a position, by the low bits of its hash (kept
    /// only with more than one agent).
    workers: Box<[AtomicU32]>,
}

/// The buckets, and a tag byte for each slot (a few bits of its key, 0 while empty):
/// a look for a position reads the bucket's four tags, dense enough to stay in the
/// cache, and reads a slot only where its tag matches (most absent positions cost no
/// read of the buckets at all).
/// Writes to a bucket take its lock (reads never do), so that an agent's write never
/// undoes another's, such as a proof stored between its read and its write.
struct Slots {
    buckets: Box<[Bucket]>,
    tags: Box<[AtomicU8]>,
    locks: Box<[AtomicBool]>,
}

impl Slots {
    pub(super) fn new(count: usize) -> Slots {
        Slots {
            buckets: (0..count).map(|_| Bucket::default()).collect(),
            tags: (0..count * BUCKET_SLOTS)
                .map(|_| AtomicU8::new(0))
                .collect(),
            locks: (0..count).map(|_| AtomicBool::new(false)).collect(),
        }
    }

    /// Takes bucket `index`'s lock (held for a few reads and writes: spins, yielding
    /// the core where the holder may have lost its own).
    fn lock(&self, index: usize) -> BucketLock<'_> {
        let lock = &self.locks[index];
        let mut spins = 0u32;
        while lock
            .compare_exchange_weak(false, true, Ordering::Acquire, Ordering::Relaxed)
            .is_err()
        {
            spins += 1;
            if spins.is_multiple_of(64) {
                std::thread::yield_now();
            } else {
                std::hint::spin_loop();
            }
        }
        BucketLock(lock)
    }

    pub(super) fn len(&self) -> usize {
        self.buckets.len()
    }

    /// The index of `key`'s bucket.
    fn index(&self, key: u64) -> usize {
        key as usize & (self.buckets.len() - 1)
    }

    /// The entries held, as keys and data words: every slot but the empty ones and
    /// those whose key does not belong in their bucket (written half-way).
    fn entries(&self) -> impl Iterator<Item = (u64, u64)> + '_ {
        self.buckets
            .iter()
            .enumerate()
            .flat_map(move |(index, bucket)| {
                bucket.0.iter().filter_map(move |slot| {
                    let (check, word) = words(slot);
                    let key = check ^ word;
                    (word | check != 0 && self.index(key) == index).then_some((key, word))
                })
            })
    }

    /// Writes slot `i` of `bucket` for `key`.
    fn write(&self, bucket: usize, i: usize, key: u64, word: u64) {
        let cell = &self.buckets[bucket].0[i];
        cell[1].store(word, Ordering::Relaxed);
        cell[0].store(key ^ word, Ordering::Relaxed);
        self.tags[bucket * BUCKET_SLOTS + i].store(tag(key), Ordering::Relaxed);
    }
}

/// A slot's checksum and data words.
fn words(slot: &[AtomicU64; 2]) -> (u64, u64) {
    (
        slot[0].load(Ordering::Relaxed),
        slot[1].load(Ordering::Relaxed),
    )
}

/// A bucket's lock, held until dropped.
struct BucketLock<'a>(&'a AtomicBool);

impl Drop for BucketLock<'_> {
    fn drop(&mut self) {
        self.0.store(false, Ordering::Release);
    }
}

/// A key's tag: seven bits of it (not the attacker's) and a set bit, never 0.
fn tag(key: u64) -> u8 {
    ((key >> 56) as u8) | 0x80
}

impl Table {
    /// The buckets of a table of `entries` slots at most: a power of two, at least one.
    pub(super) fn buckets_for(entries: usize) -> usize {
        let most = (entries / BUCKET_SLOTS).max(1);
        if most.is_power_of_two() {
            most
        } else {
            most.next_power_of_two() / 2
        }
    }

    /// A table of about `entries` slots at most (at least a bucket).
    pub(super) fn new(entries: usize) -> Table {
        let max_buckets = Table::buckets_for(entries);
        Table {
            slots: RwLock::new(Slots::new(FIRST_BUCKETS.min(max_buckets))),
            max_buckets,
            filled: AtomicUsize::new(0),
            grow_wanted: AtomicBool::new(false),
            rendezvous: Mutex::new(Rendezvous::default()),
            wake: Condvar::new(),
            proofs: AtomicU64::new(0),
            workers: (0..WORKER_COUNTERS).map(|_| AtomicU32::new(0)).collect(),
        }
    }

    /// The buckets, for an epoch of searching (or for reading).
    pub(super) fn view(&self) -> View<'_> {
        View {
            table: self,
            slots: self.slots.read().unwrap_or_else(|p| p.into_inner()),
        }
    }

    fn next_rank(&self) -> u64 {
        self.proofs.fetch_add(1, Ordering::Relaxed) + 1
    }

    pub(super) fn workers(&self, hash: u64) -> u32 {
        self.workers[hash as usize & (WORKER_COUNTERS - 1)].load(Ordering::Relaxed)
    }

    /// One more (`enter`) or one fewer agent searches under `hash`.
    pub(super) fn mark(&self, hash: u64, enter: bool) {
        let counter = &self.workers[hash as usize & (WORKER_COUNTERS - 1)];
        if enter {
            counter.fetch_add(1, Ordering::Relaxed);
        } else {
            counter.fetch_sub(1, Ordering::Relaxed);
        }
    }

    pub(super) fn len(&self) -> usize {
        self.filled.load(Ordering::Relaxed)
    }

    /// The slots it may grow to.
    pub(super) fn max_slots(&self) -> usize {
        self.max_buckets * BUCKET_SLOTS
    }

    /// Doubles the buckets (no view may be held): every entry moves to its bucket in
    /// the larger table, which always has room (a bucket's entries split between two).
    pub(super) fn grow(&self) {
        let mut slots = self.slots.write().unwrap_or_else(|p| p.into_inner());
        let count = (slots.len() * 2).min(self.max_buckets);
        if count > slots.len() {
            let larger = Slots::new(count);
            let mut filled = 0;
            for (key, word) in slots.entries() {
                let target = larger.index(key);
                let free = larger.buckets[target]
                    .0
                    .iter()
                    .position(|s| words(s) == (0, 0));
                if let Some(i) = free {
                    larger.write(target, i, key, word);
                    filled += 1;
                }
            }
            *slots = larger;
            self.filled.store(filled, Ordering::Relaxed);
        }
        self.grow_wanted.store(false, Ordering::Relaxed);
    }

    /// An agent joins the search.
    pub(super) fn join(&self) {
        self.lock_rendezvous().active += 1;
    }

    /// An agent that returned to the root for the table to grow waits for the others;
    /// the last to arrive grows it.
    pub(super) fn meet(&self) {
        let mut r = self.lock_rendezvous();
        r.waiting += 1;
        if r.waiting == r.active {
            self.grow();
            Table::release(&mut r, &self.wake);
        } else {
            let epoch = r.epoch;
            while r.epoch == epoch {
                r = self.wake.wait(r).unwrap_or_else(|p| p.into_inner());
            }
        }
    }

    /// An agent leaves the search for good: if the others all wait, they go on.
    pub(super) fn leave(&self) {
        let mut r = self.lock_rendezvous();
        r.active -= 1;
        if r.waiting > 0 && r.waiting == r.active {
            self.grow();
            Table::release(&mut r, &self.wake);
        }
    }

    fn release(r: &mut Rendezvous, wake: &Condvar) {
        r.waiting = 0;
        r.epoch += 1;
        wake.notify_all();
    }

    fn lock_rendezvous(&self) -> MutexGuard<'_, Rendezvous> {
        self.rendezvous.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Loads a saved state's entries, each proof with its rank.
    pub(super) fn load(&self, state: &DfpnState) {
        let mut view = self.view();
        for (side, list) in state.tables.iter().enumerate() {
            for &(hash, e) in list {
                let rank = (e.numbers.proof == 0).then_some(e.proof_rank);
                view.put(hash, side, e.numbers, 0, rank);
                if self.grow_wanted.load(Ordering::Relaxed) {
                    // (Growing takes the table whole: no view may be held.)
                    drop(view);
                    self.grow();
                    view = self.view();
                }
            }
        }
        let proofs = state.proofs.iter().copied().max().unwrap_or(0);
        self.proofs.fetch_max(proofs, Ordering::Relaxed);
    }

    /// Both searches' entries, for keeping.
    pub(super) fn save(&self, state: &mut DfpnState) {
        let mut tables: [Vec<(u64, Entry)>; 2] = Default::default();
        for (key, word) in self.view().slots.entries() {
            let s = Slot::from_data(word);
            tables[(key >> 63) as usize].push((
                key & !(1 << 63),
                Entry {
                    numbers: s.numbers,
                    proof_rank: s.proof_rank,
                },
            ));
        }
        state.tables = tables;
        state.proofs = [self.proofs.load(Ordering::Relaxed); 2];
    }
}

/// The table's buckets as they are for an epoch.
pub(super) struct View<'t> {
    table: &'t Table,
    slots: RwLockReadGuard<'t, Slots>,
}

impl View<'_> {
    /// Counts a slot filled; past a quarter of the slots, asks for the table to grow.
    fn count_filled(&self) {
        let table = self.table;
        let filled = table.filled.fetch_add(1, Ordering::Relaxed) + 1;
        let buckets = self.slots.len();
        if filled * GROW_AT_FILL_DIVISOR > buckets * BUCKET_SLOTS && buckets < table.max_buckets {
            table.grow_wanted.store(true, Ordering::Relaxed);
        }
    }

    pub(super) fn get(&self, hash: u64, side: usize) -> Option<Slot> {
        let key = table_key(hash, side);
        let (index, tag) = (self.slots.index(key), tag(key));
        let tags = &self.slots.tags[index * BUCKET_SLOTS..(index + 1) * BUCKET_SLOTS];
        let bucket = &self.slots.buckets[index];
        (0..BUCKET_SLOTS).find_map(|i| {
            if tags[i].load(Ordering::Relaxed) != tag {
                return None;
            }
            let (check, word) = words(&bucket.0[i]);
            (check ^ word == key).then(|| Slot::from_data(word))
        })
    }

    /// Stores `numbers` for `hash` in `side`'s search, with `work` more positions
    /// expanded under it. A solved entry is not overwritten by unsolved numbers, nor a
    /// proof by a disproof (another agent's disproof may rest on its path's
    /// repetitions; a proof holds on every path), and a proof keeps the rank of its
    /// first storing. In a full bucket the slot `replace_order` puts first goes.
    pub(super) fn store(&self, hash: u64, side: usize, numbers: Numbers, work: u64) {
        self.put(hash, side, numbers, work, None);
    }

    /// `store`, a new proof ranked `rank` where given.
    fn put(&self, hash: u64, side: usize, numbers: Numbers, work: u64, rank: Option<u64>) {
        let key = table_key(hash, side);
        let table = self.table;
        let index = self.slots.index(key);
        let bucket = &self.slots.buckets[index];
        let _lock = self.slots.lock(index);
        // Slots fill in order and never empty again: the first empty one ends the look.
        let mut found = None;
        let mut empty = None;
        let mut victim: Option<(usize, (u64, u64))> = None;
        for (i, slot) in bucket.0.iter().enumerate() {
            let (check, word) = words(slot);
            if word | check == 0 {
                empty = Some(i);
                break;
            }
            if check ^ word == key {
                found = Some((i, Slot::from_data(word)));
                break;
            }
            let order = Slot::replace_order(word);
            if victim.is_none_or(|(_, o)| order < o) {
                victim = Some((i, order));
            }
        }
        let new_proof_rank = |numbers: Numbers| {
            if numbers.proof == 0 {
                rank.unwrap_or_else(|| table.next_rank())
            } else {
                0
            }
        };
        let (i, slot) = if let Some((i, old)) = found {
            let kept = old.numbers.proof == 0 || (old.numbers.disproof == 0 && numbers.proof != 0);
            let log_work = log_work(work_of_log(old.log_work).saturating_add(work));
            let slot = if kept {
                Slot { log_work, ..old }
            } else {
                Slot {
                    numbers,
                    proof_rank: new_proof_rank(numbers),
                    log_work,
                }
            };
            (i, slot)
        } else {
            let free = match (empty, victim) {
                (Some(i), _) => {
                    self.count_filled();
                    i
                }
                (None, Some((i, (class, _)))) => {
                    // A bucket of proofs in a table that will grow: no proof makes way
                    // (a certificate is read from the proofs kept). The new entry is
                    // not kept (a node whose child is never kept is caught as a
                    // seesaw); a new proof makes the table grow first (the agents go
                    // back to the root, and the search proves it again).
                    let grows = self.slots.len() < table.max_buckets;
                    if grows && class == PROVEN_CLASS {
                        if numbers.proof == 0 {
                            table.grow_wanted.store(true, Ordering::Relaxed);
                        }
                        return;
                    }
                    i
                }
                (None, None) => return,
            };
            let slot = Slot {
                numbers,
                proof_rank: new_proof_rank(numbers),
                log_work: log_work(work),
            };
            (free, slot)
        };
        self.slots.write(index, i, key, slot.to_data());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unsolved(proof: u64, disproof: u64) -> Numbers {
        Numbers { proof, disproof }
    }

    #[test]
    fn a_slot_keeps_numbers_ranks_and_work_through_its_data_word() {
        for (numbers, rank) in [
            (unsolved(1, 1), 0),
            (unsolved(INFINITE - 1, 7), 0),
            (Numbers::PROVEN, 123_456_789),
            (Numbers::DISPROVEN, 0),
        ] {
            let slot = Slot {
                numbers,
                proof_rank: rank,
                log_work: 17,
            };
            let back = Slot::from_data(slot.to_data());
            assert_eq!(
                (back.numbers, back.proof_rank, back.log_work),
                (numbers, rank, 17)
            );
        }
        assert_eq!(log_work(0), 0);
        assert_eq!(log_work(work_of_log(log_work(1000))), log_work(1000));
    }

    #[test]
    fn the_table_grows_keeps_both_searches_apart_and_never_lets_a_proof_go() {
        let table = Table::new(1 << 20);
        for hash in 0..20_000u64 {
            let hash = hash.wrapping_mul(0x9e37_79b9_7f4a_7c15);
            table.view().store(hash, 0, unsolved(2, 3), 1);
            table.view().store(hash, 1, Numbers::DISPROVEN, 1);
            if table.grow_wanted.load(Ordering::Relaxed) {
                table.grow();
            }
        }
        assert!(table.view().slots.len() > FIRST_BUCKETS);
        let view = table.view();
        let first = 0x9e37_79b9_7f4a_7c15u64;
        assert_eq!(view.get(first, 0).unwrap().numbers, unsolved(2, 3));
        assert_eq!(view.get(first, 1).unwrap().numbers, Numbers::DISPROVEN);
        // A proof stays a proof, with its first rank; a disproof stays over unsolved
        // numbers; work adds up.
        view.store(first, 0, Numbers::PROVEN, 1);
        let rank = view.get(first, 0).unwrap().proof_rank;
        view.store(first, 0, Numbers::DISPROVEN, 1);
        view.store(first, 0, Numbers::PROVEN, 1);
        assert_eq!(view.get(first, 0).unwrap().numbers, Numbers::PROVEN);
        assert_eq!(view.get(first, 0).unwrap().proof_rank, rank);
        view.store(first, 1, unsolved(1, 1), 100);
        let slot = view.get(first, 1).unwrap();
        assert_eq!(slot.numbers, Numbers::DISPROVEN);
        assert_eq!(slot.log_work, log_work(101));
    }

    #[test]
    fn a_full_bucket_drops_unsolved_entries_before_disproofs_before_proofs() {
        // One bucket: every key shares it.
        let table = Table::new(BUCKET_SLOTS);
        let view = table.view();
        let keys: Vec<u64> = (1..=5).map(|k| k << 8).collect();
        view.store(keys[0], 0, Numbers::PROVEN, 1);
        view.store(keys[1], 0, Numbers::DISPROVEN, 1);
        view.store(keys[2], 0, unsolved(3, 3), 1000);
        view.store(keys[3], 0, unsolved(3, 3), 1);
        view.store(keys[4], 0, unsolved(1, 1), 1);
        assert!(
            view.get(keys[3], 0).is_none(),
            "the unsolved entry of least work goes"
        );
        for k in [0, 1, 2, 4] {
            assert!(view.get(keys[k], 0).is_some(), "key {k}");
        }
        view.store(6 << 8, 0, unsolved(1, 1), 1);
        view.store(7 << 8, 0, unsolved(1, 1), 1);
        view.store(8 << 8, 0, unsolved(1, 1), 1);
        assert!(view.get(keys[0], 0).is_some() && view.get(keys[1], 0).is_some());
    }

    #[test]
    fn a_bucket_of_proofs_keeps_them_while_the_table_may_grow() {
        // A table that may still double (its limit above its first size).
        let table = Table::new(FIRST_BUCKETS * BUCKET_SLOTS * 2);
        let view = table.view();
        // One bucket now, two once the table doubles.
        let keys: Vec<u64> = (1..=5u64)
            .map(|k| (k << 40) | ((k & 1) * FIRST_BUCKETS as u64))
            .collect();
        for &key in &keys[..4] {
            view.store(key, 0, Numbers::PROVEN, 1);
        }
        view.store(keys[4], 0, unsolved(1, 1), 1000);
        assert!(view.get(keys[4], 0).is_none(), "the unsolved entry waits");
        assert!(keys[..4].iter().all(|&k| view.get(k, 0).is_some()));
        assert!(!table.grow_wanted.load(Ordering::Relaxed));
        view.store(keys[4], 0, Numbers::PROVEN, 1);
        assert!(
            view.get(keys[4], 0).is_none() && keys[..4].iter().all(|&k| view.get(k, 0).is_some()),
            "no proof makes way for another (a certificate would lose it)"
        );
        assert!(
            table.grow_wanted.load(Ordering::Relaxed),
            "the table grows first"
        );
        drop(view);
        table.grow();
        table.view().store(keys[4], 0, Numbers::PROVEN, 1);
        assert!(keys.iter().all(|&k| table.view().get(k, 0).is_some()));
    }

    #[test]
    fn a_proof_makes_way_for_a_proof_once_the_table_is_as_large_as_it_may_be() {
        let table = Table::new(BUCKET_SLOTS);
        let view = table.view();
        let keys: Vec<u64> = (1..=5).map(|k| k << 40).collect();
        for &key in &keys {
            view.store(key, 0, Numbers::PROVEN, 1);
        }
        assert!(view.get(keys[4], 0).is_some());
        assert_eq!(
            keys.iter().filter(|&&k| view.get(k, 0).is_some()).count(),
            4
        );
        assert!(!table.grow_wanted.load(Ordering::Relaxed));
    }

    #[test]
    fn a_slot_written_half_way_reads_as_absent() {
        let table = Table::new(1 << 10);
        let view = table.view();
        view.store(42, 0, unsolved(5, 6), 1);
        // Another key's data word in the slot, its checksum not yet written.
        let index = view.slots.index(table_key(42, 0));
        let other = Slot {
            numbers: Numbers::PROVEN,
            proof_rank: 1,
            log_work: 0,
        };
        view.slots.buckets[index].0[0][1].store(other.to_data(), Ordering::Relaxed);
        assert!(view.get(42, 0).is_none());
    }
}

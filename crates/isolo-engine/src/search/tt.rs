//! A transposition table shared between search threads without locks: each entry is two
//! 64-bit atomics, the key stored xor-ed with the data, so a torn write is detected as a
//! miss (Hyatt and Mann's lockless hashing).
//!
//! A table's memory outlives its searcher: given back when the searcher ends, it is the
//! next table of its size, so a program that searches by the thousand (a comparison's
//! games, Python's analyses, the server's requests) neither allocates nor has the system
//! fill pages for each. Each use of the memory is an epoch written into the entries' keys:
//! an entry of an earlier epoch is never found and never keeps its slot, so a table taken
//! again searches exactly as a fresh one (a search's result does not depend on what ran
//! before it).

use super::table_memory::{Slot, ZeroedSlots};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;

/// What a stored value means relative to the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The value itself.
    Exact,
    /// The true value is at least this (a fail high).
    Lower,
    /// The true value is at most this (a fail low).
    Upper,
}

/// One stored search result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The stored value (proven values counted from this node).
    pub value: i32,
    /// The best move's index in generation order (`NO_MOVE` if none).
    pub best: u16,
    /// Depth searched below the node.
    pub depth: u8,
    /// What the value bounds.
    pub bound: Bound,
}

/// `best` when no move is stored.
pub const NO_MOVE: u16 = u16::MAX;

/// Slots sampled for `hashfull`.
const HASHFULL_SAMPLE: usize = 1000;

/// The slots a table searches at first (64 MB of them). A larger table's other slots
/// join as these fill (`grow_when_full`): the system fills a page with zeros when it is
/// first touched, and a search's probes land all over its table, so a search of a few
/// thousand nodes in a table of gigabytes would have the whole table zeroed (seconds)
/// for nothing.
const FIRST_ACTIVE_SLOTS: usize = (64 << 20) / std::mem::size_of::<Slot>();
/// Permille of the active slots' sample holding entries of this use of the table at
/// which the active slots grow.
const GROW_AT_PERMILLE: usize = 250;
/// How many times over the active slots grow at once. A quarter of the entries stay
/// where their keys lead (the others read as empty, as entries replaced do).
const GROWTH: usize = 4;

/// Depth a fresher entry may give up before an older, deeper one keeps its slot.
const REPLACE_DEPTH_MARGIN: u8 = 2;

impl Entry {
    fn pack(&self, generation: u8) -> u64 {
        let bound = match self.bound {
            Bound::Exact => 0u64,
            Bound::Lower => 1,
            Bound::Upper => 2,
        };
        (self.value as u32 as u64)
            | (self.best as u64) << 32
            | (self.depth as u64) << 48
            | bound << 56
            | ((generation & 0x3F) as u64) << 58
    }

    fn unpack(data: u64) -> (Entry, u8) {
        let bound = match (data >> 56) & 3 {
            0 => Bound::Exact,
            1 => Bound::Lower,
            _ => Bound::Upper,
        };
        let entry = Entry {
            value: data as u32 as i32,
            best: (data >> 32) as u16,
            depth: (data >> 48) as u8,
            bound,
        };
        (entry, (data >> 58) as u8)
    }
}

/// The table: a power-of-two number of slots.
pub struct TranspositionTable {
    slots: ZeroedSlots,
    /// The slots in use, a power of two: the first `FIRST_ACTIVE_SLOTS` (or all of a
    /// smaller table), growing as they fill.
    active: AtomicUsize,
    generation: AtomicU64,
    /// This use of the memory (at most `EPOCH_MASK`): it stands in the low bits of every
    /// key stored, so entries of earlier uses read as empty.
    epoch: u64,
}

/// Low key bits that hold the table's epoch instead. They are bits of the slot's index
/// (a table has at least `MIN_SLOTS` slots), equal in every key a slot can hold, so no
/// two positions that share a slot are told apart by them.
const EPOCH_BITS: u32 = 16;
const EPOCH_MASK: u64 = (1 << EPOCH_BITS) - 1;
/// The fewest slots a table has: 1 MB of them.
const MIN_SLOTS: usize = 1 << EPOCH_BITS;

/// Memory of tables whose searchers ended, each with the next epoch it may be used at.
struct Spare {
    slots: ZeroedSlots,
    next_epoch: u64,
}

/// The spare tables, kept for the next table of the same size.
static SPARES: Mutex<Vec<Spare>> = Mutex::new(Vec::new());
/// The most memory kept in spare tables: a few default tables per core, never a large
/// table left resident after its search.
const SPARE_MOST_BYTES: usize = 512 << 20;

fn table_bytes(slots: &[Slot]) -> usize {
    std::mem::size_of_val(slots)
}

/// A spare table of `count` slots, if one is kept.
fn take_spare(count: usize) -> Option<Spare> {
    let mut spares = SPARES.lock().unwrap_or_else(|p| p.into_inner());
    let index = spares.iter().position(|s| s.slots.len() == count)?;
    Some(spares.swap_remove(index))
}

/// Keeps a table's memory for the next table of its size, while the spares stay within
/// `SPARE_MOST_BYTES`; otherwise it is freed.
fn give_back(spare: Spare) {
    let mut spares = SPARES.lock().unwrap_or_else(|p| p.into_inner());
    let kept: usize = spares.iter().map(|s| table_bytes(&s.slots)).sum();
    if kept + table_bytes(&spare.slots) <= SPARE_MOST_BYTES {
        spares.push(spare);
    }
}

/// The most memory a table may take, as a share of the machine's physical memory.
const MAX_MEMORY_SHARE: u64 = 2;
/// The largest table when the machine's memory cannot be read.
const FALLBACK_MAX_MB: usize = 64 * 1024;

/// Why a table cannot be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TableError {
    #[error("must be at least 1 MB, found 0")]
    /// A table of 0 MB.
    Empty,
    #[error("must be 1..={most} MB here (half this machine's memory), found {wanted}")]
    /// More than the machine allows.
    TooLarge {
        /// The size asked for, in MB.
        wanted: usize,
        /// The largest the machine allows, in MB.
        most: usize,
    },
    #[error("hash {0} MB: the memory cannot be allocated")]
    /// The allocation failed.
    Allocation(usize),
}

/// The largest table this machine allows, in MB: half its physical memory.
pub(crate) fn max_table_mb() -> usize {
    physical_memory_mb()
        .map(|mb| (mb / MAX_MEMORY_SHARE) as usize)
        .unwrap_or(FALLBACK_MAX_MB)
}

/// `MemTotal` of `/proc/meminfo`, where there is one.
pub(crate) fn physical_memory_mb() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}

/// Checks a table size in MB without allocating it.
pub fn check_table_mb(megabytes: usize) -> Result<(), TableError> {
    let most = max_table_mb();
    match megabytes {
        0 => Err(TableError::Empty),
        mb if mb > most => Err(TableError::TooLarge { wanted: mb, most }),
        _ => Ok(()),
    }
}

impl TranspositionTable {
    /// A table of about `megabytes` MB (a power of two of slots), or why it cannot be.
    pub fn new(megabytes: usize) -> Result<TranspositionTable, TableError> {
        check_table_mb(megabytes)?;
        let wanted = (megabytes << 20) / std::mem::size_of::<[AtomicU64; 2]>();
        let slots = if wanted.is_power_of_two() {
            wanted
        } else {
            wanted.next_power_of_two() / 2
        };
        debug_assert!(slots >= MIN_SLOTS);
        let spare = match take_spare(slots) {
            Some(spare) => spare,
            None => Spare {
                slots: ZeroedSlots::new(slots).ok_or(TableError::Allocation(megabytes))?,
                next_epoch: 0,
            },
        };
        Ok(TranspositionTable::from_spare(spare))
    }

    /// A table over `spare`'s memory at its next epoch; memory whose epochs are all
    /// spent is emptied first (once every 65,536 uses).
    fn from_spare(spare: Spare) -> TranspositionTable {
        let Spare { slots, next_epoch } = spare;
        let epoch = if next_epoch > EPOCH_MASK {
            for slot in slots.iter() {
                slot[0].store(0, Ordering::Relaxed);
                slot[1].store(0, Ordering::Relaxed);
            }
            0
        } else {
            next_epoch
        };
        TranspositionTable {
            active: AtomicUsize::new(slots.len().min(FIRST_ACTIVE_SLOTS)),
            slots,
            generation: AtomicU64::new(0),
            epoch,
        }
    }

    /// `key` as this epoch stores it.
    #[inline(always)]
    fn tagged(&self, key: u64) -> u64 {
        (key & !EPOCH_MASK) | self.epoch
    }

    /// Whether a slot's words (`check`, `data`, not empty) hold an entry of this epoch.
    #[inline(always)]
    fn of_this_epoch(&self, check: u64, data: u64) -> bool {
        (check ^ data) & EPOCH_MASK == self.epoch
    }

    /// Starts a new search: older entries give way more easily.
    pub(crate) fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    fn generation(&self) -> u8 {
        (self.generation.load(Ordering::Relaxed) & 0x3F) as u8
    }

    fn slot(&self, key: u64) -> &[AtomicU64; 2] {
        &self.slots[(key as usize) & (self.active.load(Ordering::Relaxed) - 1)]
    }

    /// Lets more of the table in use (`GROWTH` times the slots) once the active slots'
    /// sample is `GROW_AT_PERMILLE` full; any search thread may call it now and then.
    pub(crate) fn grow_when_full(&self) {
        let active = self.active.load(Ordering::Relaxed);
        if active < self.slots.len() && self.used_permille(|_| true) >= GROW_AT_PERMILLE {
            let grown = (active * GROWTH).min(self.slots.len());
            let _ =
                self.active
                    .compare_exchange(active, grown, Ordering::Relaxed, Ordering::Relaxed);
        }
    }

    /// Permille of the first thousand slots holding entries of this use of the table
    /// whose generation `counts`.
    fn used_permille(&self, counts: impl Fn(u8) -> bool) -> usize {
        let sample = self.slots.len().min(HASHFULL_SAMPLE);
        let used = self.slots[..sample]
            .iter()
            .filter(|slot| {
                let (check, data) = (
                    slot[0].load(Ordering::Relaxed),
                    slot[1].load(Ordering::Relaxed),
                );
                data != 0 && self.of_this_epoch(check, data) && counts(Entry::unpack(data).1)
            })
            .count();
        used * 1000 / sample.max(1)
    }

    /// The entry stored for `key`, if any.
    pub(crate) fn probe(&self, key: u64) -> Option<Entry> {
        let slot = self.slot(key);
        let (check, data) = (
            slot[0].load(Ordering::Relaxed),
            slot[1].load(Ordering::Relaxed),
        );
        (check ^ data == self.tagged(key) && data != 0).then(|| Entry::unpack(data).0)
    }

    /// Stores `entry` for `key`, unless a deeper entry of this search holds the slot.
    pub fn store(&self, key: u64, entry: Entry) {
        let slot = self.slot(key);
        let generation = self.generation();
        let key = self.tagged(key);
        let (check, old) = (
            slot[0].load(Ordering::Relaxed),
            slot[1].load(Ordering::Relaxed),
        );
        if old != 0 && check ^ old != key && self.of_this_epoch(check, old) {
            let (previous, previous_generation) = Entry::unpack(old);
            if previous_generation == generation
                && previous.depth > entry.depth + REPLACE_DEPTH_MARGIN
            {
                return;
            }
        }
        let data = entry.pack(generation);
        slot[0].store(key ^ data, Ordering::Relaxed);
        slot[1].store(data, Ordering::Relaxed);
    }

    /// Permille of the table holding entries of the current search (the UCI convention
    /// for `hashfull`): of the first thousand slots, scaled by the share in use.
    pub(crate) fn hashfull(&self) -> u32 {
        let generation = self.generation();
        let active = self.active.load(Ordering::Relaxed);
        let permille = self.used_permille(|g| g == generation);
        (permille * active / self.slots.len().max(1)) as u32
    }

    /// Slots in the table.
    pub fn slots(&self) -> usize {
        self.slots.len()
    }
}

impl Drop for TranspositionTable {
    fn drop(&mut self) {
        give_back(Spare {
            slots: std::mem::take(&mut self.slots),
            next_epoch: self.epoch + 1,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_large_table_lets_more_slots_in_as_they_fill() {
        let tt = TranspositionTable::new(128).unwrap();
        let first = tt.active.load(Ordering::Relaxed);
        assert_eq!(
            (first, tt.slots()),
            (FIRST_ACTIVE_SLOTS, 2 * FIRST_ACTIVE_SLOTS)
        );
        let entry = Entry {
            value: 1,
            best: 0,
            depth: 1,
            bound: Bound::Exact,
        };
        // Keys below the sample's thousand slots land in them.
        (0..200).for_each(|key| tt.store(key, entry));
        tt.grow_when_full();
        assert_eq!(tt.active.load(Ordering::Relaxed), first, "a fifth full");
        (200..300).for_each(|key| tt.store(key, entry));
        assert_eq!(tt.hashfull(), 150, "30% of the half in use");
        tt.grow_when_full();
        assert_eq!(tt.active.load(Ordering::Relaxed), tt.slots());
        assert_eq!(tt.probe(5), Some(entry), "where its key still leads");
        let small = TranspositionTable::new(16).unwrap();
        assert_eq!(small.active.load(Ordering::Relaxed), small.slots());
    }

    #[test]
    fn stores_and_finds_entries() {
        let tt = TranspositionTable::new(1).unwrap();
        let entry = Entry {
            value: -999_990,
            best: 3,
            depth: 7,
            bound: Bound::Lower,
        };
        tt.store(0xdead_beef, entry);
        assert_eq!(tt.probe(0xdead_beef), Some(entry));
        assert_eq!(tt.probe(0xdead_bee0), None);
    }

    fn sample_entry(depth: u8) -> Entry {
        Entry {
            value: 12,
            best: 1,
            depth,
            bound: Bound::Exact,
        }
    }

    /// The spare a table's drop would give back, taken from it instead.
    fn spare_of(table: TranspositionTable) -> Spare {
        let mut table = std::mem::ManuallyDrop::new(table);
        Spare {
            slots: std::mem::take(&mut table.slots),
            next_epoch: table.epoch + 1,
        }
    }

    #[test]
    fn a_reused_table_searches_as_a_fresh_one() {
        let first = TranspositionTable::new(1).unwrap();
        first.new_search();
        first.store(0xdead_beef, sample_entry(30));
        assert_eq!(first.hashfull(), 0); // (outside the sampled slots)
        first.store(5, sample_entry(30));
        assert_eq!(first.hashfull(), 1);
        let second = TranspositionTable::from_spare(spare_of(first));
        second.new_search();
        // The old entries are not found, not counted, and keep no slot.
        assert_eq!(second.probe(0xdead_beef), None);
        assert_eq!(second.probe(5), None);
        assert_eq!(second.hashfull(), 0);
        let other_key = 0xdead_beef + (1 << 40); // (the same slot)
        second.store(other_key, sample_entry(1));
        assert_eq!(second.probe(other_key), Some(sample_entry(1)));
    }

    #[test]
    fn memory_whose_epochs_are_spent_is_emptied() {
        let table = TranspositionTable::new(1).unwrap();
        table.store(5, sample_entry(3));
        let spent = Spare {
            next_epoch: EPOCH_MASK + 1,
            ..spare_of(table)
        };
        let table = TranspositionTable::from_spare(spent);
        assert_eq!(table.epoch, 0);
        assert!(table
            .slots
            .iter()
            .all(|s| s[1].load(Ordering::Relaxed) == 0));
    }

    #[test]
    fn size_is_a_power_of_two() {
        for mb in [1, 3, 16, 100] {
            let tt = TranspositionTable::new(mb).unwrap();
            assert!(tt.slots().is_power_of_two());
            assert!(tt.slots() * 16 <= mb << 20);
        }
    }

    #[test]
    fn sizes_beyond_the_machine_are_errors() {
        assert_eq!(TranspositionTable::new(0).err(), Some(TableError::Empty));
        for mb in [max_table_mb() + 1, usize::MAX] {
            assert!(matches!(
                TranspositionTable::new(mb),
                Err(TableError::TooLarge { .. })
            ));
        }
    }
}

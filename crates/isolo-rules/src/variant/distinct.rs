//! The distinct results of a move with optional captures, found without listing every
//! sequence of take/pass choices.
//!
//! RULES.md makes every sequence a move, and in Igisoro a single pit can have tens of
//! millions of them (most lead to the same few positions). A searcher only needs each
//! distinct resulting position once. The turning point where a choice is met fixes
//! everything that can follow it (the seeds on both sides, where the lap ended and where
//! a capture would resow from), so the choices form a graph over turning points. A
//! sequence that ends the move is a walk in that graph; cutting out a loop of a walk
//! that repeats a turning point leaves a shorter walk with the same end, and without
//! repeats it is a legal move. So the positions legal moves reach are exactly those a
//! breadth-first search over the graph reaches within `max_laps` laps (every edge is one
//! lap, so the first visit is the one with fewest laps), and the work is bounded by the
//! number of distinct turning points, not of sequences.
//!
//! Where laps may turn clockwise (RULES.md 3.7) each lap that may is two edges, one a
//! direction: the lap's direction is decided by the point it leaves from, so the graph
//! is still one over turning points.
//!
//! Hashing every turning point costs more than listing a few sequences, so a pit is
//! first listed sequence by sequence (duplicates dropped), and searched breadth first
//! only when that would take more than `SMALL_LISTING_LAPS` laps.

use super::lap::{LapState, Taken};
use super::machine::{LapEvent, MoveMachine};
use super::rule_set::MoveRules;
use super::walks::Bounded;
use super::{MoveEnd, MoveGen, TurningPoint, Variant};
use crate::notation::Choice;
use crate::ring::{self, Ring};

/// How a turning point (or an end) was reached from the one before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    /// No capture was possible: a relay.
    Relay,
    Take,
    Pass,
    /// A pass the opponent answered by retreating (`retreat`).
    PassRetreat,
    /// A pass the opponent answered by staying (`retreat`).
    PassStay,
}

/// No choice before: the move's first capture choice is still ahead.
const NO_CHOICE: u32 = u32::MAX;

/// A turning point reached by the breadth-first search, and how it was first reached.
#[derive(Clone, Copy, Debug)]
pub(super) struct Reached {
    point: TurningPoint,
    /// Seeds a take there captures (0: none), as the lap kernel found them.
    take: u32,
    laps: u32,
    step: Step,
    /// The direction chosen for the lap that reached it, where that lap could turn.
    direction: Option<Choice>,
    /// The latest point before this one that was reached by a choice (`NO_CHOICE` if
    /// none): the choices of a path are read back along these links, skipping relays.
    earlier_choice: u32,
}

impl Reached {
    /// The latest point reached by a choice on the path to this one, itself included.
    fn latest_choice(&self, index: u32) -> u32 {
        if self.step == Step::Relay && self.direction.is_none() {
            self.earlier_choice
        } else {
            index
        }
    }
}

/// A lap about to be sown, with how it came about.
struct Lap {
    mine: Ring,
    theirs: Ring,
    from: usize,
    seeds: u32,
    laps: u32,
    step: Step,
    /// Its direction where it could turn (set by `Variant::sow_either_way`).
    direction: Option<Choice>,
    /// The latest point reached by a choice before this lap.
    earlier_choice: u32,
}

impl Lap {
    /// The kernel's state before this lap is sown (`laps` counts the laps sown before
    /// it; captures are counted at the end, from the seeds the opponent lost).
    fn state_before(&self) -> LapState {
        LapState {
            mine: self.mine,
            theirs: self.theirs,
            from: self.from,
            seeds: self.seeds,
            laps: self.laps - 1,
            captured: 0,
            // (`first-sowing`, which follows it, is read with forced captures only.)
            turned: super::Turned::Not,
        }
    }
}

/// A key of a `StampedSet`: its fields mixed into one well-spread word.
trait Mixed: Copy + Eq {
    fn mixed(&self) -> u64;
}

/// The two rings a move ends with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct EndRings(Ring, Ring);

impl Mixed for EndRings {
    fn mixed(&self) -> u64 {
        let words = (self.0 as u64)
            ^ ((self.0 >> 64) as u64).rotate_left(21)
            ^ (self.1 as u64).rotate_left(42)
            ^ ((self.1 >> 64) as u64).rotate_left(7);
        words.wrapping_mul(0x9e37_79b9_7f4a_7c15)
    }
}

/// Slots a stamped table starts with.
const FIRST_SLOTS: usize = 64;

/// A slot of a `StampedSlots` table: it belongs to the filling whose stamp it holds.
trait Slot: Copy + Default {
    fn stamp(&self) -> u32;
    /// Makes the slot belong to no filling.
    fn forget(&mut self);
}

/// Open-addressing slots emptied in O(1) by a new stamp: the generator empties its sets
/// once per pit, and most pits meet only a few turning points, so clearing a table that
/// grew large once must not cost its size every time.
#[derive(Debug)]
struct StampedSlots<S> {
    slots: Vec<S>,
    /// The slots in use: a prefix of `slots` sized by the filling before, so a set that
    /// once grew large is not probed all over (a cache miss per key) when it holds a few
    /// keys again, nor grown again key by key when it is filled as much.
    used: usize,
    stamp: u32,
    len: usize,
}

impl<S: Slot> Default for StampedSlots<S> {
    /// No slots; the first `FIRST_SLOTS` come with the first key.
    fn default() -> Self {
        StampedSlots {
            slots: Vec::new(),
            used: 0,
            stamp: 1,
            len: 0,
        }
    }
}

impl<S: Slot> StampedSlots<S> {
    /// Empties the table, keeping in use slots for four times the keys it held.
    fn clear(&mut self) {
        let wanted = (self.len * 4).next_power_of_two().max(FIRST_SLOTS);
        self.used = self.used.min(wanted);
        self.len = 0;
        self.next_stamp();
    }

    /// A stamp that no slot holds.
    fn next_stamp(&mut self) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            // Old stamps could come back: forget them all.
            self.slots.iter_mut().for_each(S::forget);
            self.stamp = 1;
        }
    }

    /// Whether one more key would fill more than half the slots in use.
    fn full(&self) -> bool {
        2 * (self.len + 1) > self.used
    }

    /// Where the probe for a key of mixed word `mixed` starts, and the mask to wrap it.
    fn probe(&self, mixed: u64) -> (usize, usize) {
        let mask = self.used - 1;
        ((mixed >> 32) as usize & mask, mask)
    }

    fn is_free(&self, at: usize) -> bool {
        self.slots[at].stamp() != self.stamp
    }

    /// Fills slot `at` (free) with `slot`.
    fn fill(&mut self, at: usize, slot: S) {
        self.slots[at] = slot;
        self.len += 1;
    }

    /// Doubles the slots in use, allocating more only when they are all in use, and
    /// empties them: the caller files its keys again.
    fn double(&mut self) {
        self.used = (self.used * 2).max(FIRST_SLOTS);
        if self.used > self.slots.len() {
            self.slots = vec![S::default(); self.used];
            self.stamp = 1;
        } else {
            self.next_stamp();
        }
        self.len = 0;
    }
}

impl<K: Copy + Default> Slot for (u32, K) {
    fn stamp(&self) -> u32 {
        self.0
    }

    fn forget(&mut self) {
        self.0 = 0;
    }
}

/// A set of keys in stamped slots, each key in its slot.
#[derive(Debug)]
struct StampedSet<K> {
    table: StampedSlots<(u32, K)>,
}

impl<K: Mixed + Default> Default for StampedSet<K> {
    fn default() -> Self {
        StampedSet {
            table: StampedSlots::default(),
        }
    }
}

impl<K: Mixed + Default> StampedSet<K> {
    fn clear(&mut self) {
        self.table.clear();
    }

    fn is_empty(&self) -> bool {
        self.table.len == 0
    }

    /// Adds `key`; false if it was already there.
    fn insert(&mut self, key: K) -> bool {
        if self.table.full() {
            self.grow();
        }
        let (mut at, mask) = self.table.probe(key.mixed());
        loop {
            if self.table.is_free(at) {
                self.table.fill(at, (self.table.stamp, key));
                return true;
            }
            if self.table.slots[at].1 == key {
                return false;
            }
            at = (at + 1) & mask;
        }
    }

    fn grow(&mut self) {
        let table = &self.table;
        let live: Vec<K> = table.slots[..table.used]
            .iter()
            .filter(|slot| slot.0 == table.stamp)
            .map(|slot| slot.1)
            .collect();
        self.table.double();
        for key in live {
            self.insert(key);
        }
    }
}

/// The turning points the breadth-first search has reached, as numbers into its list
/// of them: a slot is 12 bytes where a point is 48, so a search over thousands of points
/// probes a table that stays in cache.
#[derive(Debug, Default)]
struct ReachedSet {
    table: StampedSlots<ReachedSlot>,
}

/// A slot of a `ReachedSet`: its filling's stamp, the point's tag (bits of its mixed
/// word), and its number in the search's list.
#[derive(Clone, Copy, Debug, Default)]
struct ReachedSlot {
    stamp: u32,
    tag: u32,
    index: u32,
}

impl Slot for ReachedSlot {
    fn stamp(&self) -> u32 {
        self.stamp
    }

    fn forget(&mut self) {
        self.stamp = 0;
    }
}

impl ReachedSet {
    fn clear(&mut self) {
        self.table.clear();
    }

    /// Adds `point` as number `reached.len()` (the caller then pushes it); false if
    /// `reached` already holds it.
    fn insert(&mut self, point: &TurningPoint, reached: &[Reached]) -> bool {
        if self.table.full() {
            self.grow(reached);
        }
        let mixed = point.mixed();
        let tag = mixed as u32;
        let (mut at, mask) = self.table.probe(mixed);
        loop {
            if self.table.is_free(at) {
                let slot = ReachedSlot {
                    stamp: self.table.stamp,
                    tag,
                    index: reached.len() as u32,
                };
                self.table.fill(at, slot);
                return true;
            }
            let slot = self.table.slots[at];
            if slot.tag == tag && reached[slot.index as usize].point == *point {
                return false;
            }
            at = (at + 1) & mask;
        }
    }

    /// Doubles the slots in use and files every point of `reached` again.
    fn grow(&mut self, reached: &[Reached]) {
        self.table.double();
        for (index, node) in reached.iter().enumerate() {
            let inserted = self.insert(&node.point, &reached[..index]);
            debug_assert!(inserted, "the reached points are distinct");
        }
    }
}

/// Buffers of the breadth-first search over turning points.
#[derive(Default, Debug)]
pub(super) struct DistinctSearch {
    reached: Vec<Reached>,
    points: ReachedSet,
    ends: StampedSet<EndRings>,
    /// The moves of a small listing, before duplicates are dropped, and their choices.
    listed: Vec<ListedEnd>,
    listed_choices: Vec<Choice>,
}

/// A move found by the sequence generator in a small listing.
#[derive(Clone, Copy, Debug)]
struct ListedEnd {
    mine: Ring,
    theirs: Ring,
    laps: u32,
    captured: u32,
    /// Its choices: `listed_choices[first..first + count]`.
    first: u32,
    count: u32,
}

/// A small listing's moves up to this many are told apart by comparing pairs, more
/// through a set.
const ENDS_BY_PAIRS: usize = 8;

/// Laps of each sequence not checked for a return to a point of its path when only the
/// positions are listed (see `Variant::play_sequences`).
const UNCHECKED_LAPS: u32 = 64;

/// Laps the sequence generator may sow for one pit before a distinct listing turns to
/// the breadth-first search: most pits meet few choices, and listing their sequences
/// depth first is cheaper than hashing every turning point.
pub(super) const SMALL_LISTING_LAPS: u64 = 1024;

impl Variant {
    /// Calls `visit` once for each distinct position the moves of `m` lead to, with one
    /// move that reaches it (its choices are left empty unless `with_choices`): from the
    /// sequences themselves when they are few, else the one of fewest laps found first,
    /// take before pass, anticlockwise before clockwise. Returns false when `visit`
    /// asked to stop.
    pub(super) fn play_distinct<K: MoveRules>(
        &self,
        m: &MoveMachine<K>,
        (mine, theirs): (Ring, Ring),
        gen: &mut MoveGen,
        with_choices: bool,
        template: &MoveEnd,
        visit: &mut dyn FnMut(&MoveEnd) -> bool,
    ) -> bool {
        let rings = (mine, theirs);
        if let Some(more) = self.distinct_by_sequences(m, rings, gen, with_choices, template, visit)
        {
            return more;
        }
        let search = &mut gen.distinct;
        search.reached.clear();
        search.points.clear();
        search.ends.clear();
        let theirs_total = ring::total(theirs);
        let pit = m.frame.pit;
        let first = Lap {
            mine: ring::clear_lane(mine, pit),
            theirs,
            from: pit,
            seeds: ring::lane(mine, pit) as u32,
            laps: 1,
            step: Step::Relay,
            direction: None,
            earlier_choice: NO_CHOICE,
        };
        let mut ended = |lap: &Lap, mine: Ring, gen: &mut MoveGen| -> bool {
            if !gen.distinct.ends.insert(EndRings(mine, lap.theirs)) {
                return true;
            }
            gen.choices.clear();
            if with_choices {
                push_choices(&gen.distinct.reached, lap, &mut gen.choices);
            }
            visit(&MoveEnd {
                choices: &gen.choices,
                mine,
                theirs: lap.theirs,
                laps: lap.laps,
                captured: theirs_total - ring::total(lap.theirs),
                ..*template
            })
        };
        if !self.sow_either_way(m, first, gen, &mut ended) {
            return false;
        }
        let mut next = 0;
        while next < gen.distinct.reached.len() {
            let node = gen.distinct.reached[next];
            let at = next as u32;
            next += 1;
            let point = node.point;
            let end = point.end as usize;
            let earlier_choice = node.latest_choice(at);
            let take = node.take;
            let laps = node.laps + 1;
            if laps > m.k.max_laps() {
                continue;
            }
            // The state after the lap that reached the point, before its choice.
            let reached = LapState {
                mine: point.mine,
                theirs: point.theirs,
                from: end,
                seeds: 0,
                laps: node.laps,
                captured: 0,
                turned: super::Turned::Not,
            };
            let lap_of = |state: LapState, step: Step| Lap {
                mine: state.mine,
                theirs: state.theirs,
                from: state.from,
                seeds: state.seeds,
                laps,
                step,
                direction: None,
                earlier_choice,
            };
            if take > 0 {
                let mut state = reached;
                let taken = m.take(&mut state, (end, point.origin as usize, take));
                let taking = lap_of(state, Step::Take);
                let more = match taken {
                    Taken::Ended => ended(&taking, state.mine, gen),
                    Taken::SowOn => self.sow_either_way(m, taking, gen, &mut ended),
                    Taken::TooLong => true,
                };
                if !more {
                    return false;
                }
            }
            // A relay passes nothing: only a passed capture may be answered.
            let answered = match take {
                0 => [Some(lap_of(reached.relay(end), Step::Relay)), None],
                _ => match m.pass(&reached, end) {
                    (stay, Some(retreat)) => [
                        Some(lap_of(retreat, Step::PassRetreat)),
                        Some(lap_of(stay, Step::PassStay)),
                    ],
                    (stay, None) => [Some(lap_of(stay, Step::Pass)), None],
                },
            };
            for lap in answered.into_iter().flatten() {
                if !self.sow_either_way(m, lap, gen, &mut ended) {
                    return false;
                }
            }
        }
        true
    }

    /// Sows `lap`, anticlockwise then clockwise where it may turn.
    fn sow_either_way<K: MoveRules>(
        &self,
        m: &MoveMachine<K>,
        lap: Lap,
        gen: &mut MoveGen,
        ended: &mut dyn FnMut(&Lap, Ring, &mut MoveGen) -> bool,
    ) -> bool {
        if !m.may_turn(&lap.state_before()) {
            return self.sow_distinct_lap(m, false, lap, gen, ended);
        }
        let anticlockwise = Lap {
            direction: Some(Choice::Anticlockwise),
            ..lap
        };
        let clockwise = Lap {
            direction: Some(Choice::Clockwise),
            ..lap
        };
        self.sow_distinct_lap(m, false, anticlockwise, gen, ended)
            && self.sow_distinct_lap(m, true, clockwise, gen, ended)
    }

    /// Lists the pit's distinct results from its sequences (first sequence of each, take
    /// before pass) when that takes at most `gen.small_listing_laps` laps; `None` when
    /// it would take more (nothing has been visited then).
    fn distinct_by_sequences<K: MoveRules>(
        &self,
        m: &MoveMachine<K>,
        rings: (Ring, Ring),
        gen: &mut MoveGen,
        with_choices: bool,
        template: &MoveEnd,
        visit: &mut dyn FnMut(&MoveEnd) -> bool,
    ) -> Option<bool> {
        if gen.small_listing_laps == 0 {
            return None;
        }
        let mut listed = std::mem::take(&mut gen.distinct.listed);
        let mut choices = std::mem::take(&mut gen.distinct.listed_choices);
        // Without choices, first with the early laps unchecked; should the loops that
        // leaves in use up the budget, again with every lap checked, so the listing is
        // the one the checked sequences give whenever they fit the budget.
        let attempts: &[u32] = if with_choices || m.turns.is_some() {
            &[0]
        } else {
            &[UNCHECKED_LAPS, 0]
        };
        let mut complete = false;
        for &unchecked_laps in attempts {
            listed.clear();
            choices.clear();
            let mut budget = Bounded::new(gen.small_listing_laps);
            let list = |mine, theirs, path: &[Choice], laps, captured| {
                listed.push(ListedEnd {
                    mine,
                    theirs,
                    laps,
                    captured,
                    first: choices.len() as u32,
                    count: path.len() as u32,
                });
                if with_choices {
                    choices.extend_from_slice(path);
                }
                true
            };
            self.play_sequences(m, rings, (unchecked_laps, &mut budget), gen, list);
            complete = !budget.spent();
            if complete || gen.poll.stopped() {
                break;
            }
        }
        let mut more = !gen.poll.stopped();
        if complete && more {
            let by_pairs = listed.len() <= ENDS_BY_PAIRS;
            gen.distinct.ends.clear();
            for (i, end) in listed.iter().enumerate() {
                let repeated = if by_pairs {
                    let same = |e: &ListedEnd| e.mine == end.mine && e.theirs == end.theirs;
                    listed[..i].iter().any(same)
                } else {
                    !gen.distinct.ends.insert(EndRings(end.mine, end.theirs))
                };
                if repeated {
                    continue;
                }
                let shown = if with_choices {
                    &choices[end.first as usize..(end.first + end.count) as usize]
                } else {
                    &[]
                };
                more = visit(&MoveEnd {
                    choices: shown,
                    mine: end.mine,
                    theirs: end.theirs,
                    laps: end.laps,
                    captured: end.captured,
                    ..*template
                });
                if !more {
                    break;
                }
            }
        }
        gen.distinct.listed = listed;
        gen.distinct.listed_choices = choices;
        complete.then_some(more)
    }

    /// Sows one lap: the move ends (reported to `ended`), or a turning point not seen
    /// before joins the search. Returns false when `ended` asked to stop.
    fn sow_distinct_lap<K: MoveRules>(
        &self,
        m: &MoveMachine<K>,
        clockwise: bool,
        lap: Lap,
        gen: &mut MoveGen,
        ended: &mut dyn FnMut(&Lap, Ring, &mut MoveGen) -> bool,
    ) -> bool {
        if !gen.poll.lap() {
            return false;
        }
        let mut state = lap.state_before();
        let (point, take) = match m.sow(&mut state, clockwise) {
            // (The search counts laps as it queues them: none is too long here.)
            LapEvent::TooLong => return true,
            LapEvent::Ended => return ended(&lap, state.mine, gen),
            LapEvent::Turning(at) => (at.point, at.take),
        };
        let search = &mut gen.distinct;
        // The limit binds only once the pit has a move (unless strict), so a pit with
        // legal moves always lists one.
        if search.reached.len() >= gen.point_limit && (gen.strict_limit || !search.ends.is_empty())
        {
            gen.truncated = true;
            return true;
        }
        if search.points.insert(&point, &search.reached) {
            search.reached.push(Reached {
                point,
                take,
                laps: lap.laps,
                step: lap.step,
                direction: lap.direction,
                earlier_choice: lap.earlier_choice,
            });
        }
        true
    }
}

/// Appends the choices of the path that `lap` ends: at each point the capture's take
/// or pass, then the next lap's direction.
fn push_choices(reached: &[Reached], lap: &Lap, out: &mut Vec<Choice>) {
    let first = out.len();
    // Read backwards, so each lap's direction comes before the step that led to it.
    let mut push = |step: Step, direction: Option<Choice>| {
        out.extend(direction);
        match step {
            Step::Relay => {}
            Step::Take => out.push(Choice::Take),
            Step::Pass => out.push(Choice::Pass),
            Step::PassRetreat => out.extend([Choice::Retreat, Choice::Pass]),
            Step::PassStay => out.extend([Choice::Stay, Choice::Pass]),
        }
    };
    push(lap.step, lap.direction);
    let mut at = lap.earlier_choice;
    while at != NO_CHOICE {
        let node = reached[at as usize];
        push(node.step, node.direction);
        at = node.earlier_choice;
    }
    out[first..].reverse();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point(seed: u64) -> TurningPoint {
        TurningPoint {
            mine: (seed as Ring) << 3,
            theirs: (seed % 7) as Ring,
            end: (seed % 16) as u8,
            origin: (seed % 5) as u8,
        }
    }

    fn reached(point: TurningPoint) -> Reached {
        Reached {
            point,
            take: 0,
            laps: 1,
            step: Step::Relay,
            direction: None,
            earlier_choice: NO_CHOICE,
        }
    }

    #[test]
    fn the_reached_set_knows_exactly_the_points_filed_since_it_was_cleared() {
        let mut set = ReachedSet::default();
        let mut list = Vec::new();
        // Fillings of every size, so the set grows, shrinks its slots in use and
        // meets keys of earlier fillings under old stamps.
        for (filling, size) in [3usize, 700, 5, 40, 2000, 1, 300].into_iter().enumerate() {
            set.clear();
            list.clear();
            for k in 0..size as u64 {
                let key = k * 31 + filling as u64;
                assert!(set.insert(&point(key), &list), "a new point is new");
                list.push(reached(point(key)));
                assert!(!set.insert(&point(key), &list), "a point filed is known");
            }
            for k in 0..size as u64 {
                assert!(!set.insert(&point(k * 31 + filling as u64), &list));
            }
            // A point of another filling (its key is not of this one's form) is new.
            let other = point((size as u64 + 1) * 31 + filling as u64 + 1);
            assert!(set.insert(&other, &list));
        }
    }
}

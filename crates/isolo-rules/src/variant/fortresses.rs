//! Building the fortress table (`crate::fortress`) from the rules' moves: the rings of up
//! to `MAX_FORTRESS_SEEDS` seeds whose owner can keep them out of capture for ever,
//! found by listing each ring's moves (see the table's module for why this is a proof).

use super::Listing;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::{Arc, Mutex, OnceLock};

use super::{MoveGen, Variant};
use crate::board::{Board, Pits};
use crate::fortress::{Fortresses, MAX_FORTRESS_SEEDS};
use crate::ring::{self, Ring};
use crate::rules_file::{CaptureChoice, CaptureCondition, Rules};
use crate::side::Side;

/// A table built, by the rules it was built for (their name and start aside).
type Built = (Rules, Arc<Fortresses>);

impl Fortresses {
    /// The table for `variant`, shared by every caller with the same rules; `None` where
    /// the rules allow no fortress (`capture = any`: a single seed can be taken).
    pub fn of(variant: &Variant) -> Option<Arc<Fortresses>> {
        // The retreat (an answer to a passed capture, moving the threatened side's own
        // seeds) changes nothing here: the opponent is never offered a capture of a
        // fortress's seeds, so never passes one the owner could answer, and the answers
        // to the owner's passes move the opponent's seeds alone, while the owner's pass
        // relays as it does where no capture is offered (tested by a walked minimax).
        if variant.rules().capture != CaptureCondition::Both {
            return None;
        }
        static TABLES: OnceLock<Mutex<Vec<Built>>> = OnceLock::new();
        let key = Rules {
            name: String::new(),
            start: [Pits::default(); 2],
            ..variant.rules().clone()
        };
        let tables = TABLES.get_or_init(|| Mutex::new(Vec::new()));
        let mut tables = tables.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, table)) = tables.iter().find(|(rules, _)| *rules == key) {
            return Some(table.clone());
        }
        let table = Arc::new(Fortresses::build(variant));
        tables.push((key, table.clone()));
        Some(table)
    }

    /// Lists every ring of up to `MAX_FORTRESS_SEEDS` seeds and keeps the fortresses.
    fn build(variant: &Variant) -> Fortresses {
        let lanes = variant.pits();
        let columns = (0..lanes / 2).map(|c| (c, lanes - 1 - c)).collect();
        let mut table = Fortresses {
            columns,
            safe: HashSet::new(),
            sealed: HashSet::new(),
        };
        let mut rings = Vec::new();
        for seeds in 1..=MAX_FORTRESS_SEEDS {
            rings_of(lanes, seeds, 0, 0, &mut rings);
        }
        let index: HashMap<Ring, usize> = rings.iter().enumerate().map(|(i, &r)| (r, i)).collect();
        // Each ring's moves to rings with no column filled (moves capture nothing, so
        // keep the seed count: every one is listed), each once, and the reverse.
        let opponent = opponent_offering_no_escape(variant);
        let mut gen = MoveGen::new();
        let mut parents = vec![Vec::new(); rings.len()];
        let mut exits: Vec<usize> = Vec::with_capacity(rings.len());
        for (i, &r) in rings.iter().enumerate() {
            let mut children: Vec<usize> = quiet_moves(variant, r, opponent, &mut gen)
                .into_iter()
                .filter(|&c| !table.capturable(c))
                .map(|c| index[&c])
                .collect();
            children.sort_unstable();
            children.dedup();
            for &c in &children {
                parents[c].push(i);
            }
            exits.push(children.len());
        }
        // The greatest fixed point: a ring with no move left into the set leaves it, and
        // its parents lose that move.
        let mut dropped: Vec<usize> = (0..rings.len()).filter(|&i| exits[i] == 0).collect();
        let mut safe = vec![true; rings.len()];
        for &i in &dropped {
            safe[i] = false;
        }
        while let Some(i) = dropped.pop() {
            for &p in &parents[i] {
                exits[p] -= 1;
                if exits[p] == 0 && safe[p] {
                    safe[p] = false;
                    dropped.push(p);
                }
            }
        }
        table.safe = rings
            .iter()
            .zip(&safe)
            .filter(|(_, &s)| s)
            .map(|(&r, _)| r)
            .collect();
        table.sealed = table.sealed_rings(variant, &rings, &index, &mut gen);
        table
    }

    /// The sealed rings among `rings` (see `sealed`): the greatest set of rings that
    /// have a move, whose every move (listed against a seed in every opponent pit, so
    /// that any lap ending on a seed of the owner's front row captures) captures
    /// nothing and leads to a ring of the set with no column filled.
    fn sealed_rings(
        &self,
        variant: &Variant,
        rings: &[Ring],
        index: &HashMap<Ring, usize>,
        gen: &mut MoveGen,
    ) -> HashSet<Ring> {
        let full = (0..variant.pits()).fold(0, |r, lane| ring::set_lane(r, lane, 1));
        let owner = Side::South;
        let mut parents = vec![Vec::new(); rings.len()];
        let mut sealed = vec![true; rings.len()];
        for (i, &mine) in rings.iter().enumerate() {
            let mut parts = [0; 2];
            parts[owner as usize] = mine;
            parts[owner.opponent() as usize] = full;
            let board = Board::from_parts(parts, owner, 0);
            let mut children = Vec::new();
            let (mut open, mut always_a_move) = (false, false);
            // Every move the owner might make counts, but only one open whatever the
            // opponent holds assures it a move.
            owner_moves(variant, &board, gen, |child, captured, always_legal| {
                open |= captured > 0 || self.capturable(child);
                always_a_move |= always_legal;
                children.push(child);
            });
            if open || !always_a_move {
                sealed[i] = false;
            }
            for child in children {
                // (No capture: the child keeps the seed count, so it is listed.)
                if let Some(&c) = index.get(&child) {
                    parents[c].push(i);
                }
            }
        }
        // A ring one of whose moves leaves the set leaves it too.
        let mut dropped: Vec<usize> = (0..rings.len()).filter(|&i| !sealed[i]).collect();
        while let Some(i) = dropped.pop() {
            for &p in &parents[i] {
                if sealed[p] {
                    sealed[p] = false;
                    dropped.push(p);
                }
            }
        }
        rings
            .iter()
            .zip(&sealed)
            .filter(|(_, &s)| s)
            .map(|(&r, _)| r)
            .collect()
    }
}

/// The opponent's ring to list the owner's quiet moves against. Under optional captures
/// an empty ring, which offers no capture: each pit's one move is its all-pass move, and
/// the listing stays short. Under forced ones a seed in every pit, so that every lap
/// ending in an occupied front pit captures and `quiet_moves` drops it.
fn opponent_offering_no_escape(variant: &Variant) -> Ring {
    if variant.rules().capture_choice == CaptureChoice::Optional {
        0
    } else {
        (0..variant.pits()).fold(0, |r, lane| ring::set_lane(r, lane, 1))
    }
}

/// The owner's rings after each of its moves from `mine` that is legal and captures
/// nothing whatever the opponent holds, listed against `opponent` (see the module's notes
/// and `opponent_offering_no_escape`).
fn quiet_moves(variant: &Variant, mine: Ring, opponent: Ring, gen: &mut MoveGen) -> Vec<Ring> {
    let owner = Side::South;
    let mut rings = [0; 2];
    rings[owner as usize] = mine;
    rings[owner.opponent() as usize] = opponent;
    let board = Board::from_parts(rings, owner, 0);
    let mut out = Vec::new();
    owner_moves(variant, &board, gen, |child, captured, always_legal| {
        if captured == 0 && always_legal {
            out.push(child);
        }
    });
    out
}

/// Calls `visit` with the ring after each distinct move of the side to move on `board`,
/// the seeds it captures, and whether it is legal whatever the opponent holds (it sows
/// no lap clockwise).
fn owner_moves(
    variant: &Variant,
    board: &Board,
    gen: &mut MoveGen,
    mut visit: impl FnMut(Ring, u32, bool),
) {
    let owner = board.to_move();
    if !variant.has_directions() {
        variant.visit_moves(board, Variant::ALL_PITS, Listing::Results, gen, |m| {
            visit(m.child.ring(owner), m.captured, true)
        });
        return;
    }
    // Listed with their choices: a result also reached without a clockwise lap is
    // always legal.
    let mut seen: BTreeMap<(Ring, u32), bool> = BTreeMap::new();
    variant.visit_moves(board, Variant::ALL_PITS, Listing::Sequences, gen, |m| {
        let anticlockwise = !m.choices.contains(&crate::Choice::Clockwise);
        *seen.entry((m.child.ring(owner), m.captured)).or_default() |= anticlockwise;
    });
    for ((child, captured), always_legal) in seen {
        visit(child, captured, always_legal);
    }
}

/// Appends every ring of `seeds` seeds in lanes `from..lanes` added to `base`.
fn rings_of(lanes: usize, seeds: u32, from: usize, base: Ring, out: &mut Vec<Ring>) {
    if seeds == 0 {
        out.push(base);
        return;
    }
    for lane in from..lanes {
        let more = ring::set_lane(base, lane, ring::lane(base, lane) + 1);
        rings_of(lanes, seeds - 1, lane, more, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn igisoro() -> Variant {
        Variant::load("igisoro").unwrap()
    }

    #[test]
    fn a_move_open_only_through_a_clockwise_lap_holds_no_fortress() {
        // North's two lone seeds look safe against a full opponent, whose seeds let its
        // laps turn clockwise (`faces-seeds`); here they do not, and South wins in 5.
        let rules = "name = \"turning\"\ncolumns = 4\n\
            start = \"1,3,3,3/1,0,2,1/0,3,0,1/1,1,3,0\"\nmin_sow = 1\ncapture = \"both\"\n\
            capture_choice = \"forced\"\ncapture_sow_from = \"capture-pit\"\n\
            overture = false\noverture_protects = false\ncapture_ends_move = false\n\
            max_laps = 20\nfirst_move_captures = \"barred-first\"\n\
            clockwise_from = [5, 7, 8]\nclockwise_laps = \"any\"\n\
            clockwise_when = \"faces-seeds\"\n";
        let variant = Variant::new(Rules::from_toml(rules, "x").unwrap()).unwrap();
        let board = variant
            .parse_position("0,0,0,1/0,1,0,0/0,0,1,1/0,0,0,3 S -")
            .unwrap();
        let fortresses = variant.fortresses().unwrap();
        assert!(!fortresses.holds(&board, Side::North));
        assert_eq!(variant.dead_side(&board), None);
    }

    /// The owner's rings after each pit's sowing, relays only (no opponent seeds to take),
    /// in plain arrays: a move that comes back to a lap's end is a loop, not a move.
    fn plain_moves(ring: &[u8]) -> Vec<Vec<u8>> {
        let n = ring.len();
        let mut out = Vec::new();
        for start in (0..n).filter(|&p| ring[p] > 0) {
            let mut r = ring.to_vec();
            let mut pit = start;
            let mut ends = Vec::new();
            loop {
                let seeds = std::mem::take(&mut r[pit]);
                for _ in 0..seeds {
                    pit = (pit + 1) % n;
                    r[pit] += 1;
                }
                if r[pit] == 1 {
                    out.push(r);
                    break;
                }
                if ends.contains(&(r.clone(), pit)) {
                    break;
                }
                ends.push((r.clone(), pit));
            }
        }
        out
    }

    /// Every way to hold 1 to `most` seeds in `n` pits.
    fn plain_holdings(n: usize, most: u8) -> Vec<Vec<u8>> {
        let mut all = vec![vec![0; n]];
        for _ in 0..most {
            let mut grown = all.clone();
            for r in &all {
                for lane in 0..n {
                    let mut more = r.clone();
                    more[lane] += 1;
                    grown.push(more);
                }
            }
            grown.sort();
            grown.dedup();
            all = grown;
        }
        all.retain(|r| r.iter().any(|&s| s > 0));
        all
    }

    /// The fortresses of up to `most` seeds on `columns` columns, the plain way.
    fn plain_fortresses(columns: usize, most: u8) -> Vec<Vec<u8>> {
        let n = 2 * columns;
        let filled = |r: &[u8]| (0..columns).any(|c| r[c] > 0 && r[n - 1 - c] > 0);
        let mut safe = plain_holdings(n, most);
        loop {
            let kept: Vec<Vec<u8>> = safe
                .iter()
                .filter(|r| {
                    plain_moves(r)
                        .iter()
                        .any(|c| !filled(c) && safe.contains(c))
                })
                .cloned()
                .collect();
            if kept.len() == safe.len() {
                return kept;
            }
            safe = kept;
        }
    }

    fn ring_of(lanes: &[u8]) -> Ring {
        lanes
            .iter()
            .enumerate()
            .fold(0, |r, (lane, &s)| ring::set_lane(r, lane, s))
    }

    fn igisoro_on(columns: u8) -> Variant {
        let row = |seeds: &str| vec![seeds; columns as usize].join(",");
        let (back, front) = (row("4"), row("0"));
        let text = format!(
            "base = \"igisoro\"\ncolumns = {columns}\nstart = \"{back}/{front}/{front}/{back}\"\n"
        );
        Variant::new(Rules::from_toml(&text, "igisoro-narrow").unwrap()).unwrap()
    }

    #[test]
    fn the_table_is_the_plain_listing_of_relays() {
        for (columns, most) in [(3u8, 5u8), (4, 4), (8, 3)] {
            let v = igisoro_on(columns);
            let table = Fortresses::build(&v);
            let plain: HashSet<Ring> = plain_fortresses(columns as usize, most)
                .iter()
                .map(|r| ring_of(r))
                .collect();
            let fast: HashSet<Ring> = table
                .safe
                .iter()
                .copied()
                .filter(|&r| ring::total(r) <= most as u32)
                .collect();
            assert_eq!(fast, plain, "{columns} columns");
        }
        let eight = Fortresses::of(&igisoro()).unwrap();
        let counts: Vec<usize> = (1..=4).map(|k| eight.count(k)).collect();
        assert_eq!(counts, vec![16, 106, 568, 1846]);
    }

    #[test]
    fn a_relaying_pair_holds_and_a_filled_column_does_not() {
        let v = igisoro();
        let table = Fortresses::of(&v).unwrap();
        let rows = "8,8,8,8,8,8,7,7/0,0,0,0,0,0,0,0";
        // South's pits 1 and 2 (back row, left): they relay to 3-4, 5-6, ... for ever.
        let pair = v
            .parse_position(&format!("{rows}/0,0,0,0,0,0,0,0/1,1,0,0,0,0,0,0 N"))
            .unwrap();
        assert!(table.holds(&pair, Side::South));
        // Pits 1 and 16 share column 1: North, to move, may take them.
        let column = v
            .parse_position(&format!("{rows}/0,0,0,0,0,0,0,1/1,0,0,0,0,0,0,0 N"))
            .unwrap();
        assert!(!table.holds(&column, Side::South));
    }

    #[test]
    fn capture_any_allows_no_fortress() {
        assert!(Fortresses::of(&Variant::load("isolo-women").unwrap()).is_none());
    }

    #[test]
    fn forced_captures_hold_fewer_rings_never_more() {
        let optional = Fortresses::of(&igisoro()).unwrap();
        let mut rules = igisoro().rules().clone();
        rules.capture_choice = crate::CaptureChoice::Forced;
        let forced = Fortresses::of(&Variant::new(rules).unwrap()).unwrap();
        assert!(forced.safe.is_subset(&optional.safe));
        assert!(forced.safe.len() < optional.safe.len());
        // A lone seed never lands on a seed, so it is never made to capture.
        assert_eq!(forced.count(1), 16);
    }

    /// Issue 47's Igisoro game at ply 150: North's lone seed.
    const LONE_SEED: &str = "0,0,0,0,1,0,0,0/0,0,0,0,0,0,0,0/7,18,0,10,4,1,2,5/2,2,3,0,3,1,4,1 S";

    #[test]
    fn a_lone_seed_is_sealed_and_the_position_dead() {
        let v = igisoro();
        let table = Fortresses::of(&v).unwrap();
        assert!(table.sealed.is_subset(&table.safe));
        let lone: Vec<Ring> = table
            .sealed
            .iter()
            .copied()
            .filter(|&r| ring::total(r) == 1)
            .collect();
        assert_eq!(lone.len(), 16, "a lone seed never lands on a seed");
        let board = v.parse_position(LONE_SEED).unwrap();
        assert_eq!(table.dead(&board), Some(Side::North));
        assert_eq!(v.dead_side(&board), Some(Side::North));
        // The start is not dead.
        assert_eq!(table.dead(&v.start()), None);
    }

    /// The retreat's answers move the threatened side's seeds alone: Igisoro's fortresses
    /// and sealed rings are the retreat's, and a lone seed's position is dead there too.
    #[test]
    fn the_retreat_keeps_igisoros_fortresses() {
        let plain = Fortresses::of(&igisoro()).unwrap();
        let retreat = Variant::load("igisoro-retreat").unwrap();
        let table = Fortresses::of(&retreat).unwrap();
        assert_eq!(table.safe, plain.safe);
        assert_eq!(table.sealed, plain.sealed);
        let board = retreat.parse_position(LONE_SEED).unwrap();
        assert_eq!(retreat.dead_side(&board), Some(Side::North));
    }

    #[test]
    fn a_ring_that_can_capture_is_not_sealed() {
        let v = igisoro();
        let table = Fortresses::of(&v).unwrap();
        // South's seeds in pits 8 and 9 (back row's last, front row's first): 8's seed
        // lands on 9's, which may take the facing column.
        let rows = "8,8,8,8,8,8,7,7/1,1,1,1,1,1,1,1";
        let board = v
            .parse_position(&format!("{rows}/1,0,0,0,0,0,0,0/0,0,0,0,0,0,0,1 S"))
            .unwrap();
        assert!(!table.sealed(&board, Side::South));
        assert_eq!(table.dead(&board), None);
    }
}

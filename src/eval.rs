//! Static evaluation, from the side to move, in hundredths of a seed.
//!
//! Features (each "mine minus theirs" unless said):
//! - `seeds`: seeds on each side; the game is won by running the other side out of moves,
//!   and seeds are what moves are made of.
//! - `mobility`: pits holding at least `min_sow` seeds (pits a move can start from).
//! - `threats`: the largest capture in reach: opponent seeds in a column where my front
//!   pit is occupied, so a lap of mine ending there captures them (the side to move
//!   strikes first, hence its own weight).
//! - `exposed`: the largest capture the opponent has in reach: my seeds in a column where
//!   their front pit is occupied (counted against me).
//! - `singletons`: pits holding exactly one seed, which cannot move when `min_sow` is 2.
//! - `overture`: players still in their overture, whose ng'hana cannot be captured.
//!
//! Weights are named and can be loaded from a TOML file (`--weights FILE`). Whatever the
//! weights, an evaluation stays within `±EVAL_LIMIT`, far below every proven score, so no
//! weights file can make a searcher claim a win or loss it has not proven.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::rules::notation::pit_at;
use crate::rules::ring::{self, Ring};
use crate::rules::{Board, CaptureCondition, Side, Variant};

/// The largest magnitude of any weight (hundredths of a seed per unit of its feature):
/// a hundred seeds per unit is far beyond any useful weight.
pub const MAX_WEIGHT: i32 = 10_000;
/// Every evaluation lies in `-EVAL_LIMIT..=EVAL_LIMIT` (a thousand seeds, four times every
/// seed a position can hold), far below the proven scores of `search`.
pub const EVAL_LIMIT: i32 = 100_000;

/// Hundredths of a seed per unit of each feature.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Weights {
    /// Per seed on the side.
    pub seeds: i32,
    /// Per pit a move can start from.
    pub mobility: i32,
    /// Per seed of the largest capture in reach.
    pub threats: i32,
    /// Per seed of the largest capture the opponent has in reach (subtracted).
    pub exposed: i32,
    /// Per pit holding one seed.
    pub singletons: i32,
    /// For being in overture while the opponent is not.
    pub overture: i32,
}

impl Default for Weights {
    fn default() -> Self {
        Weights {
            seeds: 100,
            mobility: 15,
            threats: 30,
            exposed: 20,
            singletons: -10,
            overture: 50,
        }
    }
}

impl Weights {
    /// All weights zero: every unproven position looks alike, which suits a prover
    /// (only wins and losses matter, and equal leaves cut the tree hardest).
    pub fn zero() -> Weights {
        Weights {
            seeds: 0,
            mobility: 0,
            threats: 0,
            exposed: 0,
            singletons: 0,
            overture: 0,
        }
    }

    /// The weights by name, in file order.
    pub fn named(&self) -> [(&'static str, i32); 6] {
        [
            ("seeds", self.seeds),
            ("mobility", self.mobility),
            ("threats", self.threats),
            ("exposed", self.exposed),
            ("singletons", self.singletons),
            ("overture", self.overture),
        ]
    }

    /// Checks that every weight lies within `±MAX_WEIGHT`, naming the first that does not.
    pub fn validate(&self) -> Result<(), String> {
        match self
            .named()
            .iter()
            .find(|(_, w)| w.unsigned_abs() > MAX_WEIGHT as u32)
        {
            Some((name, w)) => Err(format!(
                "weight `{name}` = {w} is out of range (-{MAX_WEIGHT}..={MAX_WEIGHT})"
            )),
            None => Ok(()),
        }
    }

    /// Weights from a TOML file; missing keys keep their defaults, unknown keys and
    /// weights beyond `±MAX_WEIGHT` are errors.
    pub fn load(path: &Path) -> Result<Weights, String> {
        let text = crate::rules::read_text_file(path, MAX_WEIGHTS_FILE_BYTES)
            .map_err(|e| format!("weights file {}: {e}", path.display()))?;
        let weights: Weights = toml::from_str(&text).map_err(|e: toml::de::Error| {
            format!(
                "weights file {}: {}",
                path.display(),
                crate::rules::toml_error_text(&e, &text)
            )
        })?;
        weights
            .validate()
            .map_err(|e| format!("weights file {}: {e}", path.display()))?;
        Ok(weights)
    }
}

/// The lanes of one physical column, for one side's point of view.
#[derive(Clone, Copy, Debug)]
struct Column {
    my_front: usize,
    my_back: usize,
    their_front: usize,
    their_back: usize,
    /// My rightmost column (protected while I am in overture, if the rules say so).
    my_rightmost: bool,
    their_rightmost: bool,
}

/// Evaluates positions of one variant with one set of weights.
#[derive(Clone, Debug)]
pub struct Evaluator {
    weights: Weights,
    min_sow: u8,
    any: bool,
    protects: bool,
    /// `columns[side]`: the columns as `side` sees them.
    columns: [Vec<Column>; 2],
}

/// The largest weights file read (a file that never ends stops here).
const MAX_WEIGHTS_FILE_BYTES: u64 = 64 * 1024;

/// A score of exactly zero is reserved for draws; evaluations are nudged off it.
const NOT_DRAW: i32 = 1;

impl Evaluator {
    /// An evaluator of `variant`'s positions with `weights`.
    pub fn new(variant: &Variant, weights: Weights) -> Evaluator {
        let w = variant.columns() as usize;
        let rules = variant.rules();
        let side_columns = |me: Side| -> Vec<Column> {
            (0..w)
                .map(|c| {
                    let lane = |row| pit_at(row, c, w).1;
                    let (my_front, my_back, their_front, their_back) = match me {
                        Side::South => (lane(2), lane(3), lane(1), lane(0)),
                        Side::North => (lane(1), lane(0), lane(2), lane(3)),
                    };
                    Column {
                        my_front,
                        my_back,
                        their_front,
                        their_back,
                        my_rightmost: my_back == w - 1,
                        their_rightmost: their_back == w - 1,
                    }
                })
                .collect()
        };
        Evaluator {
            weights,
            min_sow: rules.min_sow,
            any: rules.capture == CaptureCondition::Any,
            protects: rules.overture && rules.overture_protects,
            columns: [side_columns(Side::South), side_columns(Side::North)],
        }
    }

    /// The weights in use.
    pub fn weights(&self) -> &Weights {
        &self.weights
    }

    /// The score of `board` for the side to move, in hundredths of a seed (never 0).
    pub fn evaluate(&self, board: &Board) -> i32 {
        let me = board.to_move();
        let (mine, theirs) = (board.ring(me), board.ring(me.opponent()));
        let w = &self.weights;
        let seeds = sum(mine) - sum(theirs);
        let mobility = movable(mine, self.min_sow) - movable(theirs, self.min_sow);
        let singletons = singletons(mine) - singletons(theirs);
        let overture = board.in_overture(me) as i32 - board.in_overture(me.opponent()) as i32;
        let (threats, exposed) = self.captures_in_reach(board, me, mine, theirs);
        // Wide arithmetic and a clamp: no weights can reach a proven score.
        let terms = [
            (w.seeds, seeds),
            (w.mobility, mobility),
            (w.threats, threats),
            (w.exposed, -exposed),
            (w.singletons, singletons),
            (w.overture, overture),
        ];
        let sum: i64 = terms.iter().map(|&(w, f)| w as i64 * f as i64).sum();
        let score = sum.clamp(-(EVAL_LIMIT as i64), EVAL_LIMIT as i64) as i32;
        if score == 0 {
            NOT_DRAW
        } else {
            score
        }
    }

    /// The most seeds I could take in one column (theirs facing an occupied front pit of
    /// mine) and the most they could take from me, by the capture condition.
    fn captures_in_reach(&self, board: &Board, me: Side, mine: Ring, theirs: Ring) -> (i32, i32) {
        let my_shield = self.protects && board.in_overture(me);
        let their_shield = self.protects && board.in_overture(me.opponent());
        let (mut threats, mut exposed) = (0, 0);
        for col in &self.columns[me as usize] {
            let (mf, mb) = (
                ring::lane(mine, col.my_front) as i32,
                ring::lane(mine, col.my_back) as i32,
            );
            let (tf, tb) = (
                ring::lane(theirs, col.their_front) as i32,
                ring::lane(theirs, col.their_back) as i32,
            );
            let takeable = |front: i32, back: i32| {
                if self.any || (front > 0 && back > 0) {
                    front + back
                } else {
                    0
                }
            };
            if mf > 0 && !(their_shield && col.their_rightmost) {
                threats = threats.max(takeable(tf, tb));
            }
            if tf > 0 && !(my_shield && col.my_rightmost) {
                exposed = exposed.max(takeable(mf, mb));
            }
        }
        (threats, exposed)
    }
}

/// Seeds in a ring: the byte sum of each 64-bit half by one multiplication (a side holds
/// at most 255 seeds, so the sums fit a byte).
fn sum(ring: Ring) -> i32 {
    const BYTES: u64 = 0x0101_0101_0101_0101;
    let half = |h: u64| (h.wrapping_mul(BYTES) >> 56) as i32;
    half(ring as u64) + half((ring >> 64) as u64)
}

fn movable(ring: Ring, min_sow: u8) -> i32 {
    ring::lanes_at_least(ring, min_sow).count_ones() as i32
}

fn singletons(ring: Ring) -> i32 {
    (ring::lanes_at_least(ring, 1) & !ring::lanes_at_least(ring, 2)).count_ones() as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_positions_are_balanced_but_not_draw_scores() {
        for name in crate::rules::PRESETS {
            let v = Variant::load(name).unwrap();
            let e = Evaluator::new(&v, Weights::default());
            let score = e.evaluate(&v.start());
            assert!(score.abs() < 200, "{name}: {score}");
            assert_ne!(score, 0);
        }
    }

    #[test]
    fn more_seeds_score_higher() {
        let v = Variant::load("isolo-women").unwrap();
        let e = Evaluator::new(&v, Weights::default());
        let rich = v
            .parse_position("0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/9,0,0,0,2,0,0,0 S")
            .unwrap();
        assert!(e.evaluate(&rich) > 900);
        let poor = v
            .parse_position("0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/9,0,0,0,2,0,0,0 N")
            .unwrap();
        assert_eq!(e.evaluate(&poor), -e.evaluate(&rich));
    }

    #[test]
    fn seed_sum_matches_lane_sum() {
        let ring = (0..16).fold(0u128, |r, i| ring::set_lane(r, i, (i * 7 % 16) as u8));
        assert_eq!(sum(ring) as u32, ring::total(ring));
    }
}

//! Static evaluation, from the side to move, in hundredths of a seed.
//!
//! The evaluation is a weighted sum of features (each "mine minus theirs" unless said):
//! - `seeds`: seeds on each side; the game is won by running the other side out of moves,
//!   and seeds are what moves are made of.
//! - `mobility`: pits holding at least `min_sow` seeds (pits a move can start from).
//! - `threats`: the largest capture in reach by a column's shape: opponent seeds in a
//!   column where my front pit is occupied (the side to move strikes first, hence its own
//!   weight).
//! - `exposed`: the same for the opponent against me (counted against me).
//! - `singletons`: pits holding exactly one seed, which cannot move when `min_sow` is 2.
//! - `overture`: players still in their overture, whose ng'hana cannot be captured.
//! - `strike`: the most seeds a capture by the side to move's first lap takes, from the
//!   lap each of its pits would sow (`Variant::first_laps`: exact, one lap deep).
//! - `counter`: the same for the opponent, were it to move (counted against me).
//! - `capture_pits`, `relay_pits`: pits whose first lap captures, or relays.
//! - `shielded`: seeds in a column that cannot be captured (the ng'hana's while in
//!   overture, when the rules protect it).
//! - `tempo`: 1 for the side to move.
//! - `pits`: seeds in each pit, by its number (rows and columns): `pits[k]` weighs pit
//!   `k + 1`, mine against the opponent's pit of the same number.
//!
//! A weights file may add a small neural network over the same features (`[net]`, see
//! `net`), trained on top of the weighted sum by `isolo-ai tune --net H`.
//!
//! One fact overrides the weights: a side holding a fortress (`rules::fortress`, a few
//! seeds that can never be captured) cannot lose, so its opponent's score is held to a
//! draw's at most (`Evaluator::with_contempt` says what the draw is worth).
//!
//! Weights are named and loaded from TOML (`--weights FILE`, or the tuned file shipped in
//! this crate's `weights/` for the variant: see `Weights::for_variant`). Whatever the
//! weights, an evaluation stays within `±EVAL_LIMIT`, far below every proven score, so no
//! weights file can make a searcher claim a win or loss it has not proven.

use std::path::Path;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use isolo_rules::pit_at;
use isolo_rules::Fortresses;
use isolo_rules::{Board, CaptureCondition, FirstLaps, Pits, Side, Variant};

pub(crate) mod net;
use net::CompiledNet;
pub use net::Net;

/// The largest magnitude of any weight (hundredths of a seed per unit of its feature):
/// a hundred seeds per unit is far beyond any useful weight.
pub const MAX_WEIGHT: i32 = 10_000;
/// Every evaluation lies in `-EVAL_LIMIT..=EVAL_LIMIT` (a thousand seeds, four times every
/// seed a position can hold), far below the proven scores of `search`.
pub const EVAL_LIMIT: i32 = 100_000;

/// The named features, in the order of `Features` (the pit table follows them).
pub const SCALAR_FEATURES: [&str; 12] = [
    "seeds",
    "mobility",
    "threats",
    "exposed",
    "singletons",
    "overture",
    "strike",
    "counter",
    "capture_pits",
    "relay_pits",
    "shielded",
    "tempo",
];
/// Features in all: the named ones and one per pit number.
pub const FEATURES: usize = SCALAR_FEATURES.len() + Pits::MAX;

/// A position's feature values, in the order of `Weights::vector`.
pub type Features = [i32; FEATURES];

message_error! {
    /// A weight out of range or a table of the wrong shape (the first problem found).
    InvalidWeights
}

/// Why a weights file could not be had: the file (or the shipped weights' name) and
/// what is wrong with it (unreadable, not TOML, an unknown key, a weight out of range).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("weights file {file}: {reason}")]
pub struct WeightsError {
    /// The file.
    pub file: String,
    /// What is wrong.
    pub reason: String,
}

/// Hundredths of a seed per unit of each feature.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Weights {
    /// Per seed on the side.
    pub seeds: i32,
    /// Per pit a move can start from.
    pub mobility: i32,
    /// Per seed of the largest capture in reach, by column shape.
    pub threats: i32,
    /// Per seed of the largest capture the opponent has in reach (subtracted).
    pub exposed: i32,
    /// Per pit holding one seed.
    pub singletons: i32,
    /// For being in overture while the opponent is not.
    pub overture: i32,
    /// Per seed of the side to move's largest first-lap capture.
    pub strike: i32,
    /// Per seed of the opponent's largest first-lap capture (subtracted).
    pub counter: i32,
    /// Per pit whose first lap captures.
    pub capture_pits: i32,
    /// Per pit whose first lap relays.
    pub relay_pits: i32,
    /// Per seed in a column that cannot be captured.
    pub shielded: i32,
    /// For being the side to move.
    pub tempo: i32,
    /// Per seed in each pit by number (pit 1 first; missing pits weigh 0).
    pub pits: Vec<i32>,
    /// A small network added to the weighted sum (the file's `[net]` table), if any.
    pub net: Option<Net>,
}

impl Default for Weights {
    /// The hand-set weights, used where no tuned weights ship for the variant.
    fn default() -> Self {
        Weights {
            seeds: 100,
            mobility: 15,
            threats: 30,
            exposed: 20,
            singletons: -10,
            overture: 50,
            ..Weights::zero()
        }
    }
}

/// Tuned weights shipped with the program, by the preset or reading they were tuned for
/// (`isolo-ai tune`; see this crate's weights/README.md). Igisoro keeps the hand-set
/// weights: its tuned ones lost their SPRT (docs/search.md, Evaluation).
const SHIPPED: [(&str, &str); 6] = [
    (
        "isolo-women",
        include_str!("../../weights/isolo-women.toml"),
    ),
    ("isolo-boys", include_str!("../../weights/isolo-boys.toml")),
    (
        "isolo-women-capture-ends",
        include_str!("../../weights/isolo-women-capture-ends.toml"),
    ),
    (
        "isolo-boys-capture-ends",
        include_str!("../../weights/isolo-boys-capture-ends.toml"),
    ),
    ("kubuguza", include_str!("../../weights/kubuguza.toml")),
    ("ikibuguzo", include_str!("../../weights/ikibuguzo.toml")),
];

/// The shipped weights, parsed once: every search builds an evaluator, and a game's
/// moves would otherwise parse them move after move.
fn shipped() -> &'static [(&'static str, Weights)] {
    static PARSED: std::sync::OnceLock<Vec<(&str, Weights)>> = std::sync::OnceLock::new();
    PARSED.get_or_init(|| {
        SHIPPED
            .iter()
            .map(|&(name, text)| {
                let weights = Weights::parse(text, name).expect("shipped weights parse");
                (name, weights)
            })
            .collect()
    })
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
            strike: 0,
            counter: 0,
            capture_pits: 0,
            relay_pits: 0,
            shielded: 0,
            tempo: 0,
            pits: Vec::new(),
            net: None,
        }
    }

    /// The weights a variant plays with by default: the tuned weights shipped for the
    /// preset or reading whose rules it has (whatever its name), else the hand-set ones.
    pub fn for_variant(variant: &Variant) -> Weights {
        Weights::shipped_for(variant)
            .map(|(_, w)| w)
            .unwrap_or_default()
    }

    /// The shipped tuned weights for `variant`'s rules, with the preset they were tuned
    /// for, if any.
    pub fn shipped_for(variant: &Variant) -> Option<(&'static str, Weights)> {
        let preset = variant.rules().same_as_preset()?;
        shipped()
            .iter()
            .find(|(name, _)| *name == preset)
            .map(|(name, weights)| (*name, weights.clone()))
    }

    /// The scalar weights by name, in file order.
    pub fn named(&self) -> [(&'static str, i32); SCALAR_FEATURES.len()] {
        let v = self.vector();
        std::array::from_fn(|i| (SCALAR_FEATURES[i], v[i]))
    }

    /// Every weight in feature order (`Features`).
    pub(crate) fn vector(&self) -> Features {
        let mut v = [0; FEATURES];
        v[..SCALAR_FEATURES.len()].copy_from_slice(&[
            self.seeds,
            self.mobility,
            self.threats,
            self.exposed,
            self.singletons,
            self.overture,
            self.strike,
            self.counter,
            self.capture_pits,
            self.relay_pits,
            self.shielded,
            self.tempo,
        ]);
        for (slot, &w) in v[SCALAR_FEATURES.len()..].iter_mut().zip(&self.pits) {
            *slot = w;
        }
        v
    }

    /// Weights from a vector in feature order (the pit table without trailing zeros).
    pub fn from_vector(v: &Features) -> Weights {
        let mut pits = v[SCALAR_FEATURES.len()..].to_vec();
        while pits.last() == Some(&0) {
            pits.pop();
        }
        Weights {
            seeds: v[0],
            mobility: v[1],
            threats: v[2],
            exposed: v[3],
            singletons: v[4],
            overture: v[5],
            strike: v[6],
            counter: v[7],
            capture_pits: v[8],
            relay_pits: v[9],
            shielded: v[10],
            tempo: v[11],
            pits,
            net: None,
        }
    }

    /// Checks that every weight lies within `±MAX_WEIGHT` and that the pit table has at
    /// most one weight per pit, naming the first problem.
    pub(crate) fn validate(&self) -> Result<(), InvalidWeights> {
        if self.pits.len() > Pits::MAX {
            return Err(InvalidWeights(format!(
                "`pits` has {} weights; a side has at most {} pits",
                self.pits.len(),
                Pits::MAX
            )));
        }
        let named = self.named();
        let pits = self.pits.iter().enumerate().map(|(i, &w)| (i, w));
        if let Some((name, w)) = named
            .iter()
            .find(|(_, w)| w.unsigned_abs() > MAX_WEIGHT as u32)
        {
            return Err(InvalidWeights(format!(
                "weight `{name}` = {w} is out of range (-{MAX_WEIGHT}..={MAX_WEIGHT})"
            )));
        }
        for (i, w) in pits {
            if w.unsigned_abs() > MAX_WEIGHT as u32 {
                return Err(InvalidWeights(format!(
                    "weight `pits[{i}]` (pit {}) = {w} is out of range (-{MAX_WEIGHT}..={MAX_WEIGHT})",
                    i + 1
                )));
            }
        }
        self.net.as_ref().map_or(Ok(()), Net::validate)
    }

    /// Weights from TOML text (`name` in errors); see `load`.
    fn parse(text: &str, name: &str) -> Result<Weights, WeightsError> {
        let fail = |reason: String| WeightsError {
            file: name.to_string(),
            reason,
        };
        let weights: Weights = toml::from_str(text)
            .map_err(|e: toml::de::Error| fail(isolo_rules::toml_error_text(&e, text)))?;
        weights.validate().map_err(|e| fail(e.0))?;
        Ok(weights)
    }

    /// Weights by name or file: `auto` (`None`: the variant's own, tuned where shipped),
    /// `hand` (the hand-set weights), or the path of a TOML file.
    pub fn choose(text: &str) -> Result<Option<Weights>, WeightsError> {
        match text {
            "auto" => Ok(None),
            "hand" => Ok(Some(Weights::default())),
            path => Weights::load(Path::new(path)).map(Some),
        }
    }

    /// Weights from a TOML file; missing keys keep their hand-set defaults, unknown keys
    /// and weights beyond `±MAX_WEIGHT` are errors.
    pub fn load(path: &Path) -> Result<Weights, WeightsError> {
        let text = isolo_rules::read_text_file(path, MAX_WEIGHTS_FILE_BYTES).map_err(|e| {
            WeightsError {
                file: path.display().to_string(),
                reason: e.to_string(),
            }
        })?;
        Weights::parse(&text, &path.display().to_string())
    }

    /// The weights as a TOML file, `comments` (lines) first.
    pub fn to_toml(&self, comments: &[String]) -> String {
        let mut out = String::new();
        for line in comments {
            out.push_str(&format!("# {line}\n"));
        }
        for (name, w) in self.named() {
            out.push_str(&format!("{name} = {w}\n"));
        }
        let pits: Vec<String> = self.pits.iter().map(|w| w.to_string()).collect();
        out.push_str(&format!("pits = [{}]\n", pits.join(", ")));
        if let Some(net) = &self.net {
            out.push_str(&net.to_toml());
        }
        out
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
    variant: Variant,
    weights: Weights,
    vector: Features,
    net: Option<CompiledNet>,
    /// Whether any first-lap feature is used (they cost a lap per pit to compute).
    first_laps: bool,
    min_sow: u8,
    any: bool,
    protects: bool,
    /// The lanes of the rightmost column (protected in overture).
    rightmost: [usize; 2],
    /// `columns[side]`: the columns as `side` sees them.
    columns: [Vec<Column>; 2],
    /// The few-seed rings that cannot be captured (`capture = both` only).
    fortresses: Option<Arc<Fortresses>>,
    /// What a fortress's draw is worth to each side, to move (`with_contempt`).
    fortress_draw: [i32; 2],
}

/// The largest weights file read (a file that never ends stops here).
const MAX_WEIGHTS_FILE_BYTES: u64 = 64 * 1024;

/// A score of exactly zero is reserved for draws; evaluations are nudged off it.
const NOT_DRAW: i32 = 1;

/// Indices of the first-lap features in `Features`.
const FIRST_LAP_FEATURES: std::ops::Range<usize> = 6..10;

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
        let vector = weights.vector();
        Evaluator {
            variant: variant.clone(),
            first_laps: weights.net.is_some() || vector[FIRST_LAP_FEATURES].iter().any(|&w| w != 0),
            vector,
            net: weights.net.as_ref().map(CompiledNet::new),
            weights,
            min_sow: rules.min_sow(),
            any: rules.capture() == CaptureCondition::Any,
            protects: rules.overture() && rules.overture_protects(),
            rightmost: [w - 1, w],
            columns: [side_columns(Side::South), side_columns(Side::North)],
            fortresses: Fortresses::of(variant),
            fortress_draw: [0; 2],
        }
    }

    /// An evaluator with `weights`, or the variant's own (`Weights::for_variant`).
    pub(crate) fn for_config(variant: &Variant, weights: Option<&Weights>) -> Evaluator {
        let weights = weights
            .cloned()
            .unwrap_or_else(|| Weights::for_variant(variant));
        Evaluator::new(variant, weights)
    }

    /// The weights in use.
    pub fn weights(&self) -> &Weights {
        &self.weights
    }

    /// The evaluator with a draw in a fortress worth `-contempt` to `side` (the side the
    /// engine plays) and `+contempt` to its opponent: so the engine takes a fortress only
    /// when clearly behind, rather than a draw at the first small deficit, and never
    /// counts on a win against one. Draws by repetition stay at 0.
    pub(crate) fn with_contempt(mut self, side: Side, contempt: i32) -> Evaluator {
        let contempt = contempt.clamp(0, EVAL_LIMIT);
        self.fortress_draw[side as usize] = -contempt;
        self.fortress_draw[side.opponent() as usize] = contempt;
        self
    }

    /// What a draw in a fortress (or a dead position) is worth to `side`, to move: 0
    /// without contempt, else `-contempt` to the engine's side and `+contempt` to its
    /// opponent (`with_contempt`).
    pub(crate) fn fortress_draw(&self, side: Side) -> i32 {
        self.fortress_draw[side as usize]
    }

    /// The score of `board` for the side to move, in hundredths of a seed (never 0): the
    /// weights times the features, plus the net's output if there is one. Where a side
    /// holds a fortress (`rules::fortress`: it can never be captured, so cannot lose) the
    /// other cannot win: the score is no better than a draw for the attacker and no
    /// worse for the defender, the draw valued as `with_contempt` says (0 by default).
    pub fn evaluate(&self, board: &Board) -> i32 {
        self.evaluate_keeping_laps(board, &mut None)
    }

    /// `evaluate`, leaving in `laps` the side to move's first laps where the evaluation
    /// looked at them (`Variant::first_laps`): a quiescence search reads them next, and
    /// need not sow them again.
    pub(crate) fn evaluate_keeping_laps(&self, board: &Board, laps: &mut Option<FirstLaps>) -> i32 {
        let me = board.to_move();
        let held = self.fortresses.as_ref().map_or([false; 2], |f| {
            [f.holds(board, me), f.holds(board, me.opponent())]
        });
        let draw = self.fortress_draw[me as usize];
        let score = match held {
            [true, true] => draw,
            [true, false] => self.weighed(board, laps).max(draw),
            [false, true] => self.weighed(board, laps).min(draw),
            [false, false] => return self.weighed(board, laps),
        };
        if score == 0 {
            NOT_DRAW
        } else {
            score
        }
    }

    /// The weights times the features, plus the net's output, within `±EVAL_LIMIT` and
    /// never 0.
    fn weighed(&self, board: &Board, laps: &mut Option<FirstLaps>) -> i32 {
        let features = self.features_for(board, self.first_laps, laps);
        // Wide arithmetic and a clamp: no weights can reach a proven score.
        let sum: i64 = features
            .iter()
            .zip(&self.vector)
            .map(|(&f, &w)| f as i64 * w as i64)
            .sum::<i64>()
            + self
                .net
                .as_ref()
                .map_or(0, |net| net.evaluate(&features).round() as i64);
        let score = sum.clamp(-(EVAL_LIMIT as i64), EVAL_LIMIT as i64) as i32;
        if score == 0 {
            NOT_DRAW
        } else {
            score
        }
    }

    /// Every feature of `board`, from the side to move.
    pub fn features(&self, board: &Board) -> Features {
        self.features_for(board, true, &mut None)
    }

    /// The features; the first-lap ones only when `first_laps` (else 0), the side to
    /// move's laps then left in `laps`.
    fn features_for(
        &self,
        board: &Board,
        first_laps: bool,
        laps: &mut Option<FirstLaps>,
    ) -> Features {
        let me = board.to_move();
        let them = me.opponent();
        let (mine, theirs) = (board.pits(me), board.pits(them));
        let (threats, exposed) = self.captures_in_reach(board, me, mine, theirs);
        let shield = |side: Side, pits: Pits| {
            if self.protects && board.in_overture(side) {
                self.rightmost
                    .iter()
                    .map(|&lane| pits.seeds(lane) as i32)
                    .sum()
            } else {
                0
            }
        };
        let mut f = [0; FEATURES];
        f[0] = sum(mine) - sum(theirs);
        f[1] = movable(mine, self.min_sow) - movable(theirs, self.min_sow);
        f[2] = threats;
        f[3] = -exposed;
        f[4] = singletons(mine) - singletons(theirs);
        f[5] = board.in_overture(me) as i32 - board.in_overture(them) as i32;
        if first_laps {
            let (my_laps, their_laps) = (
                self.variant.first_laps(board, me),
                self.variant.first_laps(board, them),
            );
            f[6] = my_laps.best_capture as i32;
            f[7] = -(their_laps.best_capture as i32);
            f[8] = my_laps.captures as i32 - their_laps.captures as i32;
            f[9] = my_laps.relays as i32 - their_laps.relays as i32;
            *laps = Some(my_laps);
        }
        f[10] = shield(me, mine) - shield(them, theirs);
        f[11] = 1;
        for (lane, slot) in f[SCALAR_FEATURES.len()..].iter_mut().enumerate() {
            *slot = mine.seeds(lane) as i32 - theirs.seeds(lane) as i32;
        }
        f
    }

    /// The most seeds I could take in one column (theirs facing an occupied front pit of
    /// mine) and the most they could take from me, by the capture condition.
    fn captures_in_reach(&self, board: &Board, me: Side, mine: Pits, theirs: Pits) -> (i32, i32) {
        let my_shield = self.protects && board.in_overture(me);
        let their_shield = self.protects && board.in_overture(me.opponent());
        let (mut threats, mut exposed) = (0, 0);
        for col in &self.columns[me as usize] {
            let (mf, mb) = (
                mine.seeds(col.my_front) as i32,
                mine.seeds(col.my_back) as i32,
            );
            let (tf, tb) = (
                theirs.seeds(col.their_front) as i32,
                theirs.seeds(col.their_back) as i32,
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

/// Seeds in pits of a position.
fn sum(pits: Pits) -> i32 {
    pits.total() as i32
}

fn movable(pits: Pits, min_sow: u8) -> i32 {
    pits.count_at_least(min_sow) as i32
}

fn singletons(pits: Pits) -> i32 {
    pits.count_exactly(1) as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_positions_are_balanced_but_not_draw_scores() {
        for name in isolo_rules::PRESETS {
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

    /// Positions along a game of first moves and last moves in turn.
    fn some_positions(v: &Variant, plies: usize) -> Vec<Board> {
        let mut board = v.start();
        let mut out = vec![board];
        for ply in 0..plies {
            let moves = v.distinct_moves(&board);
            let Some(m) = (if ply % 2 == 0 {
                moves.first()
            } else {
                moves.last()
            }) else {
                break;
            };
            board = m.child;
            out.push(board);
        }
        out
    }

    #[test]
    fn the_evaluation_is_the_weights_times_the_features() {
        let weights = Weights {
            strike: 40,
            counter: 25,
            capture_pits: 7,
            relay_pits: -3,
            shielded: 11,
            tempo: 13,
            pits: (0..16).map(|i| i * 3 - 20).collect(),
            ..Weights::default()
        };
        for name in isolo_rules::PRESETS.iter().chain(&isolo_rules::READINGS) {
            let v = Variant::load(name).unwrap();
            let e = Evaluator::new(&v, weights.clone());
            let vector = weights.vector();
            for board in some_positions(&v, 30) {
                let f = e.features(&board);
                let dot: i32 = f.iter().zip(&vector).map(|(a, b)| a * b).sum();
                let expected = if dot == 0 { NOT_DRAW } else { dot };
                assert_eq!(e.evaluate(&board), expected, "{name}");
                assert_eq!(f[11], 1, "tempo");
                let total: i32 = f[SCALAR_FEATURES.len()..].iter().sum();
                assert_eq!(total, f[0], "the pit table sums to the seed difference");
            }
        }
    }

    #[test]
    fn first_lap_features_see_captures_and_relays() {
        let v = Variant::load("isolo-women").unwrap();
        let e = Evaluator::new(&v, Weights::default());
        // Every pit holds 2: pits 7-14 end their first lap two pits on, in an occupied
        // front pit (9-16) facing occupied pits: a capture of 4. The other eight end in
        // an occupied back pit: relays.
        let f = e.features(&v.start());
        assert_eq!(f[6], 4, "strike: best first-lap capture");
        assert_eq!(f[7], -4, "counter: the opponent's");
        assert_eq!((f[8], f[9]), (0, 0), "symmetric start");
        let laps = v.first_laps(&v.start(), Side::South);
        assert_eq!((laps.captures, laps.relays, laps.ends), (8, 8, 0));
    }

    #[test]
    fn weights_files_round_trip_and_bad_tables_are_named() {
        let weights = Weights {
            tempo: -7,
            pits: vec![1, -2, 3],
            ..Weights::default()
        };
        let text = weights.to_toml(&["tuned for a test".to_string()]);
        assert!(text.starts_with("# tuned for a test\n"));
        assert_eq!(Weights::parse(&text, "t").unwrap(), weights);
        let long = format!("pits = [{}]\n", vec!["1"; 17].join(","));
        assert!(Weights::parse(&long, "t")
            .unwrap_err()
            .reason
            .contains("at most 16 pits"));
        let big = "pits = [0, 20000]\n";
        assert!(Weights::parse(big, "t")
            .unwrap_err()
            .reason
            .contains("pit 2"));
        assert_eq!(Weights::choose("auto").unwrap(), None);
        assert_eq!(Weights::choose("hand").unwrap(), Some(Weights::default()));
        assert!(Weights::choose("/no/such/file").is_err());
        // A net travels in its own table and is checked like the rest.
        let row: Vec<f32> = (0..FEATURES).map(|i| i as f32 * 0.125 - 1.5).collect();
        let netted = Weights {
            net: Some(Net {
                scale: vec![0.5; FEATURES],
                input: vec![row.clone(), row.iter().map(|x| -x).collect()],
                bias: vec![0.25, -3.0],
                output: vec![12.5, -0.75],
            }),
            ..weights
        };
        let text = netted.to_toml(&[]);
        assert_eq!(Weights::parse(&text, "t").unwrap(), netted);
        let short = text.replace("bias = [0.25, -3.0]", "bias = [0.25]");
        assert!(Weights::parse(&short, "t")
            .unwrap_err()
            .reason
            .contains("`net.bias` has 1 rows"));
        let nan = text.replace("bias = [0.25, -3.0]", "bias = [0.25, nan]");
        assert!(Weights::parse(&nan, "t")
            .unwrap_err()
            .reason
            .contains("finite"));
    }

    #[test]
    fn the_games_ship_tuned_weights_found_by_their_rules() {
        // Igisoro and the readings without a file of their own play the hand-set weights.
        for name in ["igisoro", "igisoro-retreat", "ikibuguzo-opening-1"] {
            let variant = Variant::load(name).unwrap();
            assert!(Weights::shipped_for(&variant).is_none());
            assert_eq!(Weights::for_variant(&variant), Weights::default());
        }
        for name in isolo_rules::PRESETS.iter().chain(&isolo_rules::READINGS) {
            let tuned = name.starts_with("isolo") || ["kubuguza", "ikibuguzo"].contains(name);
            if !tuned {
                continue;
            }
            let v = Variant::load(name).unwrap();
            let (preset, weights) = Weights::shipped_for(&v).expect("shipped");
            assert_eq!(preset, *name);
            assert_ne!(weights, Weights::default(), "{name}: tuned, not hand-set");
            assert_eq!(Weights::for_variant(&v), weights);
            // The same rules under another name get the same weights; other rules the
            // hand-set ones.
            let renamed = v.rules().to_builder().name("mine").build().unwrap();
            assert_eq!(
                Weights::for_variant(&Variant::new(renamed).unwrap()),
                weights
            );
        }
        let igisoro = Variant::load("igisoro").unwrap();
        let other = igisoro.rules().to_builder().min_sow(2).build().unwrap();
        assert_eq!(
            Weights::for_variant(&Variant::new(other).unwrap()),
            Weights::default()
        );
    }

    #[test]
    fn a_side_that_can_never_be_captured_cannot_lose() {
        let igisoro = Variant::load("igisoro").unwrap();
        let eval = Evaluator::for_config(&igisoro, None);
        let score = |rows: &str, side: &str| {
            eval.evaluate(&igisoro.parse_position(&format!("{rows} {side}")).unwrap())
        };
        // South's lone seed (pit 11) can never be taken: South cannot lose, North cannot
        // win, and 63 seeds to 1 counts for nothing.
        let lone = "5,1,3,2,0,10,2,10/1,1,2,0,4,1,5,16/0,0,0,0,0,1,0,0/0,0,0,0,0,0,0,0";
        assert_eq!(score(lone, "S"), NOT_DRAW);
        assert_eq!(score(lone, "N"), NOT_DRAW);
        // Two seeds in pits 1 and 2 relay round the ring two pits a move, never sharing a
        // column; in pits 1 and 16 they share one, and North, to move, may take them.
        let pair = "5,1,3,2,0,10,2,9/1,1,2,0,4,1,5,16/0,0,0,0,0,0,0,0/1,1,0,0,0,0,0,0";
        assert_eq!(score(pair, "N"), NOT_DRAW);
        let column = "5,1,3,2,0,10,2,9/1,1,2,0,4,1,5,16/0,0,0,0,0,0,0,1/1,0,0,0,0,0,0,0";
        assert!(score(column, "N") > 1000);
        // With contempt the engine's side values the draw at -10 seeds, its opponent at
        // +10: behind, it takes the fortress only when more than 10 seeds down; ahead, a
        // fortress is worse for it than any lead.
        let board =
            |rows: &str, side: &str| igisoro.parse_position(&format!("{rows} {side}")).unwrap();
        let north = Evaluator::for_config(&igisoro, None).with_contempt(Side::North, 1000);
        assert_eq!(north.evaluate(&board(lone, "N")), -1000);
        assert_eq!(north.evaluate(&board(lone, "S")), 1000);
        let south = Evaluator::for_config(&igisoro, None).with_contempt(Side::South, 1000);
        assert_eq!(south.evaluate(&board(lone, "S")), -1000);
        assert_eq!(south.evaluate(&board(lone, "N")), 1000);
        assert!(south.evaluate(&board(column, "N")) > 1000);
        // Where one seed can be captured (`capture = any`) or cannot move (`min_sow` 2),
        // seeds count as ever.
        let women = Variant::load("isolo-women").unwrap();
        let eval = Evaluator::for_config(&women, None);
        let board = women.parse_position(&format!("{lone} S")).unwrap();
        assert!(eval.evaluate(&board) < -1000);
        let rules = igisoro.rules().to_builder().min_sow(2).build().unwrap();
        let stuck = Variant::new(rules).unwrap();
        let eval = Evaluator::for_config(&stuck, None);
        let board = stuck.parse_position(&format!("{lone} S")).unwrap();
        assert!(eval.evaluate(&board) < -1000);
    }
}

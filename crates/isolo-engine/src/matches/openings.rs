//! Opening suites: files of positions, one a line, and the generator that builds them
//! from random plies, keeping positions that fixed searches judge neither proven nor
//! lopsided.

use std::sync::atomic::AtomicBool;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::search::alphabeta::{AlphaBeta, AlphaBetaConfig};
use crate::search::{searched_moves, Limits, Score, SearchRequest, Searcher};
use isolo_rules::{Board, MoveGen, Variant};

/// Why a suite could not be had. `suite` names it in messages (`openings file PATH`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OpeningsError {
    /// The file could not be read as text.
    #[error("{suite}: {reason}")]
    Unreadable {
        /// The suite's name.
        suite: String,
        /// What failed.
        reason: String,
    },
    /// A line is not a position of the variant.
    #[error("{suite}, line {line}: {reason}")]
    BadPosition {
        /// The suite's name.
        suite: String,
        /// The line's number, from 1.
        line: usize,
        /// What is wrong with it.
        reason: String,
    },
    /// A line's position has no legal move: no game can start there.
    #[error("{suite}, line {line}: the game is already over in this position")]
    GameOver {
        /// The suite's name.
        suite: String,
        /// The line's number, from 1.
        line: usize,
    },
    /// The suite holds no position.
    #[error("{suite}: no positions")]
    Empty {
        /// The suite's name.
        suite: String,
    },
    /// `random:K` without a number of plies.
    #[error("expected random:K with K a number of plies, found '{0}'")]
    BadRandom(String),
}

/// Reads a suite: one position a line; `#` starts a comment (a whole line or after the
/// position). A bad line is an error naming its number.
pub(crate) fn parse_suite(
    variant: &Variant,
    text: &str,
    name: &str,
) -> Result<Vec<Board>, OpeningsError> {
    let suite = || name.to_string();
    let mut positions = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let board = variant
            .parse_position(line)
            .map_err(|e| OpeningsError::BadPosition {
                suite: suite(),
                line: i + 1,
                reason: e.to_string(),
            })?;
        // (A dead position is over too: RULES.md 3.6.)
        if isolo_rules::rules_outcome(variant, &board, []).is_some() {
            return Err(OpeningsError::GameOver {
                suite: suite(),
                line: i + 1,
            });
        }
        positions.push(board);
    }
    if positions.is_empty() {
        return Err(OpeningsError::Empty { suite: suite() });
    }
    Ok(positions)
}

/// The largest openings file read.
const MAX_SUITE_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// Loads a suite file.
pub fn load_suite(variant: &Variant, path: &str) -> Result<Vec<Board>, OpeningsError> {
    let suite = format!("openings file {path}");
    let text = isolo_rules::read_text_file(std::path::Path::new(path), MAX_SUITE_FILE_BYTES)
        .map_err(|e| OpeningsError::Unreadable {
            suite: suite.clone(),
            // (A word that is no file: the other ways to name openings.)
            reason: format!(
                "{e} (openings are a suite file's path, `start`, or \
                 `random:K` for K random plies from the start)"
            ),
        })?;
    parse_suite(variant, &text, &suite)
}

/// Settings of the generator.
#[derive(Clone, Debug)]
pub struct SuiteRequest {
    /// Random plies from the start.
    pub plies: u32,
    /// Positions wanted.
    pub count: usize,
    /// Largest |evaluation| kept, in hundredths of a seed.
    pub max_eval: i32,
    /// Depths of the judging searches, shallowest first: a position is kept only if
    /// every one judges it balanced, so most lopsided positions cost only the cheapest.
    pub depths: Vec<u32>,
    /// Seed of the random plies.
    pub seed: u64,
    /// Random games tried at most, per position wanted.
    pub attempts_per_position: usize,
}

/// What the generator kept and why it dropped the rest.
#[derive(Clone, Debug, Default)]
pub struct SuiteReport {
    /// The positions kept, with the deepest judging search's score.
    pub positions: Vec<(Board, Score)>,
    /// Random games tried.
    pub tried: usize,
    /// Games that ended before their last ply.
    pub game_over: usize,
    /// Positions reached before.
    pub duplicates: usize,
    /// Positions a judging search proved won or lost.
    pub proven: usize,
    /// Positions a judging search scored beyond the evaluation bound.
    pub lopsided: usize,
    /// Whether the stop flag ended the search for positions before enough were kept.
    pub interrupted: bool,
}

/// Table size of the judging searches, in MB.
const JUDGE_HASH_MB: usize = 4;

/// Plays `plies` moves of the shared list (`searched_moves`) chosen uniformly at random
/// from `board`: where it gets to, and false if the game ended on the way.
pub fn random_plies(
    variant: &Variant,
    board: Board,
    plies: u32,
    rng: &mut impl Rng,
) -> (Board, bool) {
    let mut board = board;
    for _ in 0..plies {
        let (moves, _) = searched_moves(variant, &board);
        if moves.is_empty() {
            return (board, false);
        }
        board = moves[rng.random_range(0..moves.len())].child;
    }
    (board, true)
}

/// What the judging searches made of a position.
enum Judgement {
    Proven,
    Lopsided,
    /// Within the bound at every depth; the deepest search's score.
    Balanced(Score),
}

/// Searches `board` to each of the request's depths in turn (one table for all, so each
/// search starts from what the shallower ones found), stopping at the first that proves
/// it or scores it beyond the bound.
fn judge(
    variant: &Variant,
    board: Board,
    request: &SuiteRequest,
    stop: Option<&AtomicBool>,
) -> Judgement {
    let mut judge = AlphaBeta::new(AlphaBetaConfig {
        hash_mb: JUDGE_HASH_MB,
        ..AlphaBetaConfig::default()
    })
    .expect("a 4 MB table allocates");
    let mut score = Score::Draw;
    for &depth in &request.depths {
        let search = SearchRequest {
            variant,
            board,
            history: Vec::new(),
            quiet_plies: 0,
            limits: Limits {
                depth: Some(depth),
                ..Limits::default()
            },
            multipv: 1,
            pv_lines: usize::MAX,
            stop,
        };
        score = judge
            .search(&search, &mut |_| {})
            .best()
            .map(|l| l.score)
            .unwrap_or(Score::Draw);
        match score {
            Score::Win(_) | Score::Loss(_) => return Judgement::Proven,
            Score::Eval(v) if v.abs() > request.max_eval => return Judgement::Lopsided,
            _ => {}
        }
    }
    Judgement::Balanced(score)
}

/// Builds a suite of distinct positions reached by `plies` random plies from the start.
#[cfg(test)]
pub(crate) fn generate_suite(variant: &Variant, request: &SuiteRequest) -> SuiteReport {
    generate_suite_reporting(variant, request, &mut |_| {}, None)
}

/// `generate_suite`, calling `kept(positions kept so far)` after each random game tried,
/// until `stop` is raised (the position being judged then is left out).
pub fn generate_suite_reporting(
    variant: &Variant,
    request: &SuiteRequest,
    kept: &mut dyn FnMut(&SuiteReport),
    stop: Option<&AtomicBool>,
) -> SuiteReport {
    let mut rng = SmallRng::seed_from_u64(request.seed);
    let mut report = SuiteReport::default();
    let mut seen = std::collections::HashSet::new();
    let budget = request.count.saturating_mul(request.attempts_per_position);
    let stopped = || crate::raised(stop);
    while report.positions.len() < request.count && report.tried < budget {
        kept(&report);
        if stopped() {
            report.interrupted = true;
            break;
        }
        report.tried += 1;
        let (board, played) = random_plies(variant, variant.start(), request.plies, &mut rng);
        if !played || !variant.has_legal_move(&board, &mut MoveGen::new()) {
            report.game_over += 1;
            continue;
        }
        if !seen.insert(board.hash()) {
            report.duplicates += 1;
            continue;
        }
        let judgement = judge(variant, board, request, stop);
        if stopped() {
            report.tried -= 1;
            report.interrupted = true;
            break;
        }
        match judgement {
            Judgement::Proven => report.proven += 1,
            Judgement::Lopsided => report.lopsided += 1,
            Judgement::Balanced(score) => report.positions.push((board, score)),
        }
    }
    report
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(depths: Vec<u32>) -> SuiteRequest {
        SuiteRequest {
            plies: 4,
            count: 6,
            max_eval: 300,
            depths,
            seed: 3,
            attempts_per_position: 50,
        }
    }

    /// The score of a fresh search of `board` to `depth`.
    fn score_at(variant: &Variant, board: Board, depth: u32) -> Score {
        let mut only = request(vec![depth]);
        only.max_eval = i32::MAX;
        match judge(variant, board, &only, None) {
            Judgement::Balanced(score) => score,
            _ => panic!("no bound to pass, and the positions kept are not proven"),
        }
    }

    #[test]
    fn every_judging_depth_must_find_a_kept_position_balanced() {
        let variant = Variant::load("isolo-boys-capture-ends").unwrap();
        let report = generate_suite(&variant, &request(vec![2, 4]));
        assert!(!report.positions.is_empty());
        let dropped = report.game_over + report.duplicates + report.proven + report.lopsided;
        assert_eq!(report.positions.len() + dropped, report.tried);
        for &(board, deepest) in &report.positions {
            // The first search is a fresh one: its score is within the bound too.
            let Score::Eval(shallow) = score_at(&variant, board, 2) else {
                panic!("a kept position is not proven");
            };
            assert!(shallow.abs() <= 300, "depth 2 scores {shallow}");
            assert!(matches!(deepest, Score::Eval(v) if v.abs() <= 300));
        }
    }
}

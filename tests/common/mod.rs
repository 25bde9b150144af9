//! Helpers shared by the integration tests.

#![allow(dead_code)]

pub mod process;
pub mod server;
// The rules crate's test helpers (a seeded generator, random rules, the naive reference).
#[path = "../../crates/isolo-rules/tests/support/mod.rs"]
mod support;

#[allow(unused_imports)]
pub use support::{random_rules, reference, rows_text, to_reference, Rng};

use isolo_rules::Listing;
use isolo_rules::{Board, CaptureChoice, MoveGen, MoveStep, MoveWalk, Side, Variant};

/// A value known by exhaustive minimax within a horizon.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Known {
    Win(u32),
    Loss(u32),
    /// Not decided within the horizon (or a draw by repetition).
    Open,
}

/// Exhaustive minimax to `depth` plies with the searchers' conventions: no legal move
/// loses, and a position repeating one of the path is a draw (never a proof).
pub fn brute_force(
    variant: &Variant,
    board: &Board,
    depth: u32,
    path: &mut Vec<u64>,
    gen: &mut MoveGen,
) -> Known {
    // One child for each distinct result (sequences of choices that reach one position
    // have its one value; the rules' tests check this listing against the sequences):
    // listing every sequence makes a two-column board with optional captures minutes.
    let mut children = Vec::new();
    variant.visit_moves(board, Variant::ALL_PITS, Listing::Results, gen, |m| {
        children.push(m.child)
    });
    if children.is_empty() {
        return Known::Loss(0);
    }
    if depth == 0 {
        return Known::Open;
    }
    path.push(board.hash());
    let mut shortest_win = None;
    let mut longest_loss = Some(0);
    for child in &children {
        let value = if path.contains(&child.hash()) {
            Known::Open
        } else {
            brute_force(variant, child, depth - 1, path, gen)
        };
        match value {
            Known::Loss(n) => {
                shortest_win = Some(shortest_win.map_or(n + 1, |w: u32| w.min(n + 1)))
            }
            Known::Win(n) => longest_loss = longest_loss.map(|l: u32| l.max(n + 1)),
            Known::Open => longest_loss = None,
        }
    }
    path.pop();
    match (shortest_win, longest_loss) {
        (Some(w), _) => Known::Win(w),
        (None, Some(l)) => Known::Loss(l),
        (None, None) => Known::Open,
    }
}

/// Positions on small random boards (at most `max_columns` columns; optional captures
/// only on two, with at most `MOST_OPTIONAL_SEEDS` seeds, or `MOST_TURNING_SEEDS` where
/// laps may turn too), a few random plies after the start, each with a legal move and
/// fewer than `MOST_SMALL_MOVES`: exhaustive minimax must stay quick.
pub fn small_positions(count: usize, seed: u64, max_columns: u8) -> Vec<(Variant, Board)> {
    let mut rng = Rng(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let rules = random_rules(&mut rng);
        if rules.columns() > max_columns
            || rules.capture_choice() == CaptureChoice::Optional && rules.columns() > 2
        {
            continue;
        }
        let rules = rules
            .to_builder()
            .max_laps(rules.max_laps().max(20))
            .build()
            .unwrap();
        let variant = Variant::new(rules).unwrap();
        let mut board = variant.start();
        for _ in 0..rng.below(6) {
            let moves = variant.legal_moves(&board);
            if moves.is_empty() {
                break;
            }
            board = moves[rng.below(moves.len() as u64) as usize].child;
        }
        let moves = variant.count_moves_up_to(&board, &mut MoveGen::new(), MOST_SMALL_MOVES);
        let seeds = board.side_total(Side::South) + board.side_total(Side::North);
        let optional = variant.rules().capture_choice() == CaptureChoice::Optional;
        let most_seeds = if variant.has_directions() {
            MOST_TURNING_SEEDS
        } else {
            MOST_OPTIONAL_SEEDS
        };
        if (1..MOST_SMALL_MOVES).contains(&moves) && !(optional && seeds > most_seeds) {
            out.push((variant, board));
        }
    }
    out
}

/// The most legal moves a position of `small_positions` may have (not included).
const MOST_SMALL_MOVES: u64 = 64;
/// The most seeds a position of `small_positions` with optional captures may hold: 35
/// on two columns make a depth-7 minimax take half a minute.
const MOST_OPTIONAL_SEEDS: u32 = 30;
/// The same where laps may also turn, each turn doubling a lap's continuations: 24 on two
/// columns make that minimax take minutes.
const MOST_TURNING_SEEDS: u32 = 14;

/// Exhaustive minimax as `brute_force`, with each move walked a choice at a time
/// (`Variant::begin_move`): the mover's choices taken at their best and, under the
/// retreat, the opponent's answers at their worst for the mover (among those after
/// which the move can end), so the answers count as the other side's decisions.
pub fn brute_force_walked(
    variant: &Variant,
    board: &Board,
    depth: u32,
    path: &mut Vec<u64>,
) -> Known {
    if !variant.has_legal_move(board, &mut MoveGen::new()) {
        return Known::Loss(0);
    }
    if depth == 0 {
        return Known::Open;
    }
    path.push(board.hash());
    let mut walk = MoveWalk::new();
    let mut best = None;
    let mut pits = variant.candidate_pits(board);
    while pits != 0 {
        let pit = pits.trailing_zeros() as u8 + 1;
        pits &= pits - 1;
        let step = variant.begin_move(board, pit, &mut walk);
        let value = walked_step(variant, step, depth, path, &mut walk);
        best = better(best, value, true);
    }
    path.pop();
    best.expect("a position with a legal move has a value")
}

/// The value for the mover of where a walk stands (`None`: no legal move this way).
fn walked_step(
    variant: &Variant,
    step: MoveStep,
    depth: u32,
    path: &mut Vec<u64>,
    walk: &mut MoveWalk,
) -> Option<Known> {
    let (point, mover_decides) = match step {
        MoveStep::Dead { .. } => return None,
        MoveStep::End { child, .. } => {
            if path.contains(&child.hash()) {
                return Some(Known::Open);
            }
            return Some(match brute_force_walked(variant, &child, depth - 1, path) {
                Known::Win(n) => Known::Loss(n + 1),
                Known::Loss(n) => Known::Win(n + 1),
                Known::Open => Known::Open,
            });
        }
        MoveStep::Choice(point) => (point, true),
        MoveStep::Answer(point) => (point, false),
    };
    let mut found = None;
    for first in [true, false] {
        let next = variant.choose(&point, first, walk);
        let value = walked_step(variant, next, depth, path, walk);
        found = better(found, value, mover_decides);
    }
    found
}

/// The better (`best`) or worse of two values for the mover, a missing one ignored.
fn better(a: Option<Known>, b: Option<Known>, best: bool) -> Option<Known> {
    let rank = |k: Known| match k {
        Known::Win(n) => (2, -(n as i64)),
        Known::Open => (1, 0),
        Known::Loss(n) => (0, n as i64),
    };
    match (a, b) {
        (Some(a), Some(b)) => Some(if (rank(a) >= rank(b)) == best { a } else { b }),
        (a, b) => a.or(b),
    }
}

/// `brute_force` from a fresh path and generator: the value of `board` within `depth`.
pub fn known_within(variant: &Variant, board: &Board, depth: u32) -> Known {
    brute_force(variant, board, depth, &mut Vec::new(), &mut MoveGen::new())
}

/// Checks how a refused command ended: exit status 2, one line on stderr starting
/// `error: ` and containing `expected`, no panic, nothing on stdout.
pub fn assert_refused(
    args: &[&str],
    code: Option<i32>,
    stdout: &str,
    stderr: &str,
    expected: &str,
) {
    assert_eq!(code, Some(2), "{args:?}: {stderr}");
    assert_eq!(
        stderr.lines().count(),
        1,
        "{args:?}: one line, got {stderr:?}"
    );
    assert!(stderr.starts_with("error: "), "{args:?}: {stderr}");
    assert!(
        !stderr.contains("panicked") && !stderr.contains("internal error"),
        "{args:?}: {stderr}"
    );
    assert!(
        stderr.contains(expected),
        "{args:?}: {stderr:?} lacks {expected:?}"
    );
    assert!(stdout.is_empty(), "{args:?} printed {stdout:?}");
}

//! Perft: counts the leaves of the game tree to a fixed depth (RULES.md section 9), an
//! executable specification of move generation.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use rayon::prelude::*;

use crate::{Board, MoveGen, Variant};

/// The deepest count: the recursion is as deep as the count, and no tree of these games
/// can be counted so far in a lifetime anyway.
pub const MAX_PERFT_DEPTH: u32 = 64;

/// Leaves at `depth` plies below `board` (repetition and ply limits ignored).
///
/// # Panics
///
/// If `depth` is more than [`MAX_PERFT_DEPTH`].
pub fn perft(variant: &Variant, board: &Board, depth: u32) -> u64 {
    perft_until(variant, board, depth, &NEVER).expect("a count without a stop ends")
}

/// A stop flag nobody sets.
static NEVER: AtomicBool = AtomicBool::new(false);

/// Remaining depth from which a count looks at its stop flag: once a subtree of this
/// depth or more, too seldom to cost speed, often enough to stop within moments.
const STOP_CHECK_DEPTH: u32 = 4;

/// `perft`, or `None` if `stop` was raised before the count finished.
///
/// # Panics
///
/// If `depth` is more than [`MAX_PERFT_DEPTH`].
pub fn perft_until(variant: &Variant, board: &Board, depth: u32, stop: &AtomicBool) -> Option<u64> {
    assert!(
        depth <= MAX_PERFT_DEPTH,
        "perft depth {depth} is more than {MAX_PERFT_DEPTH}"
    );
    let mut buffers = Vec::new();
    let count = perft_with(
        variant,
        board,
        depth,
        &mut MoveGen::new(),
        &mut buffers,
        stop,
    );
    // A subtree cut short counts nothing, so a count the flag saw rising is not kept.
    (!stop.load(Ordering::Relaxed)).then_some(count)
}

/// One reusable child list per remaining depth keeps the recursion allocation-free.
fn perft_with(
    variant: &Variant,
    board: &Board,
    depth: u32,
    gen: &mut MoveGen,
    buffers: &mut Vec<Vec<Board>>,
    stop: &AtomicBool,
) -> u64 {
    match depth {
        0 => 1,
        1 => variant.count_moves(board, gen),
        _ if depth >= STOP_CHECK_DEPTH && stop.load(Ordering::Relaxed) => 0,
        _ => {
            let mut children = buffers.pop().unwrap_or_default();
            children.clear();
            variant.children(board, gen, &mut children);
            let nodes = children
                .iter()
                .map(|child| perft_with(variant, child, depth - 1, gen, buffers, stop))
                .sum();
            buffers.push(children);
            nodes
        }
    }
}

/// The count under each root move, in generation order; root moves are spread over the
/// current rayon pool.
///
/// # Panics
///
/// If `depth` is more than [`MAX_PERFT_DEPTH`].
pub fn divide(variant: &Variant, board: &Board, depth: u32) -> Vec<(String, u64)> {
    divide_reporting(variant, board, depth, &|_, _| {})
}

/// `divide`, calling `done(moves finished, root moves)` as each root move is counted.
///
/// # Panics
///
/// If `depth` is more than [`MAX_PERFT_DEPTH`].
pub fn divide_reporting(
    variant: &Variant,
    board: &Board,
    depth: u32,
    done: &(dyn Fn(u64, u64) + Sync),
) -> Vec<(String, u64)> {
    divide_until(variant, board, depth, done, &NEVER)
        .into_iter()
        .map(|(mv, count)| (mv, count.expect("a count without a stop ends")))
        .collect()
}

/// `divide_reporting` until `stop` is raised: each root move's count, `None` for those
/// the stop cut short or kept from starting.
///
/// # Panics
///
/// If `depth` is more than [`MAX_PERFT_DEPTH`].
pub fn divide_until(
    variant: &Variant,
    board: &Board,
    depth: u32,
    done: &(dyn Fn(u64, u64) + Sync),
    stop: &AtomicBool,
) -> Vec<(String, Option<u64>)> {
    let moves = variant.legal_moves(board);
    let below = depth.saturating_sub(1);
    let finished = AtomicU64::new(0);
    moves
        .par_iter()
        .map(|m| {
            let count = perft_until(variant, &m.child, below, stop);
            if count.is_some() {
                let k = finished.fetch_add(1, Ordering::Relaxed) + 1;
                done(k, moves.len() as u64);
            }
            (m.mv.to_string(), count)
        })
        .collect()
}

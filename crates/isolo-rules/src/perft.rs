//! Perft: counts the leaves of the game tree to a fixed depth (RULES.md section 9), an
//! executable specification of move generation.

use crate::variant::Listing;
use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use crate::board::Board;
use crate::interrupt::Interrupt;
use crate::variant::{MoveGen, Variant};

/// The deepest count: the recursion is as deep as the count, and no tree of these games
/// can be counted so far in a lifetime anyway.
pub const MAX_PERFT_DEPTH: u32 = 64;

/// Leaves at `depth` plies below `board` (repetition and ply limits ignored).
///
/// # Panics
///
/// If `depth` is more than [`MAX_PERFT_DEPTH`].
pub fn perft(variant: &Variant, board: &Board, depth: u32) -> u64 {
    perft_until(variant, board, depth, &Interrupt::never()).expect("a count without a stop ends")
}

/// Remaining depth from which a count looks at its stop flag: once a subtree of this
/// depth or more, too seldom to cost speed, often enough to stop within moments.
const STOP_CHECK_DEPTH: u32 = 4;

/// `perft`, or `None` if `stop` was raised before the count finished (a count that
/// finished as it was raised is kept).
///
/// # Panics
///
/// If `depth` is more than [`MAX_PERFT_DEPTH`].
pub fn perft_until(variant: &Variant, board: &Board, depth: u32, stop: &Interrupt) -> Option<u64> {
    assert!(
        depth <= MAX_PERFT_DEPTH,
        "perft depth {depth} is more than {MAX_PERFT_DEPTH}"
    );
    let mut buffers = Vec::new();
    let mut gen = MoveGen::new().with_interrupt(stop.clone());
    perft_with(variant, board, depth, &mut gen, &mut buffers, stop)
}

/// One reusable child list per remaining depth keeps the recursion allocation-free;
/// `None` once the stop cut a subtree short (a listing, or the subtrees not started).
fn perft_with(
    variant: &Variant,
    board: &Board,
    depth: u32,
    gen: &mut MoveGen,
    buffers: &mut Vec<Vec<Board>>,
    stop: &Interrupt,
) -> Option<u64> {
    match depth {
        0 => Some(1),
        1 => {
            let count = variant.count_moves(board, gen);
            (!gen.interrupted()).then_some(count)
        }
        _ if depth >= STOP_CHECK_DEPTH && stop.raised() => None,
        _ => {
            let mut children = buffers.pop().unwrap_or_default();
            children.clear();
            variant.children(board, gen, &mut children);
            let nodes = if gen.interrupted() {
                None
            } else {
                children
                    .iter()
                    .map(|child| perft_with(variant, child, depth - 1, gen, buffers, stop))
                    .sum()
            };
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
    divide_until(variant, board, depth, &|_, _| {}, &Interrupt::never())
        .counts
        .into_iter()
        .map(|(mv, count)| (mv, count.expect("a count without a stop ends")))
        .collect()
}

/// What `divide_until` counted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Divided {
    /// Each root move listed and its count, `None` where the stop cut it short or kept
    /// it from starting.
    pub counts: Vec<(String, Option<u64>)>,
    /// Whether every root move was listed: false when the stop came while they were.
    pub listed_in_full: bool,
}

/// `divide` until `stop` is raised, calling `done(moves finished, root moves)` as each
/// root move is counted. The root moves are listed as the stop allows: a listing it
/// cut short counts the moves listed so far.
///
/// # Panics
///
/// If `depth` is more than [`MAX_PERFT_DEPTH`].
pub fn divide_until(
    variant: &Variant,
    board: &Board,
    depth: u32,
    done: &(dyn Fn(u64, u64) + Sync),
    stop: &Interrupt,
) -> Divided {
    let mut gen = MoveGen::new().with_interrupt(stop.clone());
    let mut moves = Vec::new();
    variant.visit_moves(
        board,
        Variant::ALL_PITS,
        Listing::Sequences,
        &mut gen,
        |m| moves.push((m.mv(), m.child)),
    );
    let below = depth.saturating_sub(1);
    let finished = AtomicU64::new(0);
    let counts = moves
        .par_iter()
        .map(|(mv, child)| {
            let count = perft_until(variant, child, below, stop);
            if count.is_some() {
                let k = finished.fetch_add(1, Ordering::Relaxed) + 1;
                done(k, moves.len() as u64);
            }
            (mv.to_string(), count)
        })
        .collect();
    Divided {
        counts,
        listed_in_full: !gen.interrupted(),
    }
}

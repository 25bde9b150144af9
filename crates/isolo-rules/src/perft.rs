//! Perft: counts the leaves of the game tree to a fixed depth (RULES.md section 9), an
//! executable specification of move generation.

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
    assert!(
        depth <= MAX_PERFT_DEPTH,
        "perft depth {depth} is more than {MAX_PERFT_DEPTH}"
    );
    let mut buffers = Vec::new();
    perft_with(variant, board, depth, &mut MoveGen::new(), &mut buffers)
}

/// One reusable child list per remaining depth keeps the recursion allocation-free.
fn perft_with(
    variant: &Variant,
    board: &Board,
    depth: u32,
    gen: &mut MoveGen,
    buffers: &mut Vec<Vec<Board>>,
) -> u64 {
    match depth {
        0 => 1,
        1 => variant.count_moves(board, gen),
        _ => {
            let mut children = buffers.pop().unwrap_or_default();
            children.clear();
            variant.children(board, gen, &mut children);
            let nodes = children
                .iter()
                .map(|child| perft_with(variant, child, depth - 1, gen, buffers))
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
    let moves = variant.legal_moves(board);
    let below = depth.saturating_sub(1);
    let finished = std::sync::atomic::AtomicU64::new(0);
    moves
        .par_iter()
        .map(|m| {
            let count = perft(variant, &m.child, below);
            let k = finished.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
            done(k, moves.len() as u64);
            (m.mv.to_string(), count)
        })
        .collect()
}

//! Perft: counts the leaves of the game tree to a fixed depth (RULES.md section 9), an
//! executable specification of move generation.

use rayon::prelude::*;

use crate::rules::{Board, MoveGen, Variant};

/// Leaves at `depth` plies below `board` (repetition and ply limits ignored).
pub fn perft(variant: &Variant, board: &Board, depth: u32) -> u64 {
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
pub fn divide(variant: &Variant, board: &Board, depth: u32) -> Vec<(String, u64)> {
    let moves = variant.legal_moves(board);
    let below = depth.saturating_sub(1);
    moves
        .par_iter()
        .map(|m| (m.mv.to_string(), perft(variant, &m.child, below)))
        .collect()
}

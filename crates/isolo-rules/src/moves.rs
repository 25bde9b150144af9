//! The move list that searchers, bots, the prover and the tools share, so a move's index
//! means the same everywhere: one move for each distinct position the moves lead to,
//! deduplicated across pits under optional captures (where two pits' take/pass choices
//! often meet), with a bound on the choices explored and a flag when the list was cut.
//! Under forced captures a pit has one move and the list is every legal move.

use super::board::Board;
use super::keys::KeySet;
use super::variant::{LegalMove, MoveGen, Variant};
use crate::notation::Move;
use crate::rules_file::CaptureChoice;
use crate::variant::Listing;

/// Turning points explored from each pit when listing a position's moves (see
/// `MoveGen::with_point_limit`). Past it (only Igisoro-like rules with optional captures
/// get there, where one pit's take/pass sequences reach hundreds of thousands of
/// positions) the list holds the moves of fewest laps and says it was cut.
pub const POINTS_PER_PIT: usize = 4096;

/// Turning points `listed_move` explores from a pit too vast for the shared list before
/// it gives up naming a move there: 256 times the list's bound, so lines through such
/// pits are named in all but the vastest positions, at a bounded cost (tens of
/// megabytes at most, and the listing stops at the move; an exact listing can explore
/// tens of millions of points and gigabytes).
pub const NAMING_POINTS_PER_PIT: usize = 256 * POINTS_PER_PIT;

/// Choice sequences a list of every legal move, held in memory, names at most by
/// default (`move_sequences`): a position of optional captures can have tens of
/// millions (gigabytes), where its distinct moves number hundreds.
pub const SEQUENCES_LISTED: usize = 100_000;

/// A list of every legal move refused: there are more than it may hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "more than {most} legal moves (choice sequences) here: list the distinct moves, one \
     per position reached, or allow more"
)]
pub struct TooManyMoves {
    /// The most the list could hold.
    pub most: usize,
}

/// Every legal move at `board` (each take/pass sequence its own), in the rules' order,
/// if there are no more than `most`; counted no further than that.
pub fn move_sequences(
    variant: &Variant,
    board: &Board,
    most: usize,
) -> Result<Vec<LegalMove>, TooManyMoves> {
    let mut moves = Vec::new();
    let mut over = false;
    variant.visit_moves(
        board,
        Variant::ALL_PITS,
        Listing::Sequences,
        &mut MoveGen::new(),
        |m| {
            over = moves.len() == most;
            if !over {
                moves.push(m.to_legal_move());
            }
            !over
        },
    );
    if over {
        return Err(TooManyMoves { most });
    }
    Ok(moves)
}

/// Lists up to this long are deduplicated by comparing pairs; longer ones by a set.
const DEDUP_BY_PAIRS: usize = 64;

/// The generator of the shared list.
pub fn move_generator() -> MoveGen {
    MoveGen::with_point_limit(POINTS_PER_PIT)
}

/// Whether the rules let two pits' moves reach one position often enough to list
/// positions rather than moves.
pub fn dedups_across_pits(variant: &Variant) -> bool {
    variant.rules().capture_choice == CaptureChoice::Optional
}

/// The shared list at `board`, in its order, and whether legal results were left out.
pub fn searched_moves(variant: &Variant, board: &Board) -> (Vec<LegalMove>, bool) {
    let mut gen = move_generator();
    let mut moves = variant.distinct_moves_with(board, &mut gen);
    if dedups_across_pits(variant) {
        dedup_by_position(&mut moves, |m| &m.child);
    }
    (moves, gen.truncated())
}

/// The move that names the way from `board` to `child` among the moves of `pits` (a bit
/// set as from `candidate_pits`): the shared list's move where the list holds it, else
/// (a pit too vast to list whole) one from a listing of that pit bounded at
/// `NAMING_POINTS_PER_PIT`, or `None` where that bound leaves `child` out too.
pub fn listed_move(variant: &Variant, board: &Board, pits: u32, child: &Board) -> Option<Move> {
    listed_move_within(variant, board, pits, child, NAMING_POINTS_PER_PIT)
}

/// `listed_move` with a vast pit's listing bounded at `points` turning points.
fn listed_move_within(
    variant: &Variant,
    board: &Board,
    pits: u32,
    child: &Board,
    points: usize,
) -> Option<Move> {
    let mut lanes = pits & variant.candidate_pits(board);
    while lanes != 0 {
        let lane = lanes.trailing_zeros();
        lanes &= lanes - 1;
        let naming = MoveGen::with_point_limit(points).strict();
        for mut gen in [move_generator(), naming] {
            let mut found = None;
            variant.visit_moves(board, 1 << lane, Listing::Distinct, &mut gen, |m| {
                if m.child == *child {
                    found = Some(m.mv());
                }
                found.is_none()
            });
            if found.is_some() {
                return found;
            }
            if !gen.truncated() {
                break;
            }
        }
    }
    None
}

/// Keeps the first entry of each position, in order.
pub fn dedup_by_position<T>(list: &mut Vec<T>, board: impl Fn(&T) -> &Board) {
    if list.len() <= 1 {
        return;
    }
    if list.len() <= DEDUP_BY_PAIRS {
        let mut kept = 0;
        for i in 0..list.len() {
            let hash = board(&list[i]).hash();
            if !list[..kept].iter().any(|c| board(c).hash() == hash) {
                list.swap(kept, i);
                kept += 1;
            }
        }
        list.truncate(kept);
    } else {
        let mut seen: KeySet = KeySet::with_capacity_and_hasher(list.len(), Default::default());
        list.retain(|c| seen.insert(board(c).hash()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_of_every_move_is_bounded_and_says_so() {
        // The Python package's vast position: 20,747,365 choice sequences, 441 distinct.
        let v = Variant::load("igisoro-retreat").unwrap();
        let board = v
            .parse_position("8,1,3,1,1,1,0,2/1,2,1,0,2,0,0,0/1,2,5,3,0,6,0,1/4,1,6,5,2,1,4,0 S")
            .unwrap();
        let refused = move_sequences(&v, &board, 1_000).unwrap_err();
        assert_eq!(refused, TooManyMoves { most: 1_000 });
        assert!(refused
            .to_string()
            .starts_with("more than 1000 legal moves"));
        let start = v.start();
        let every = move_sequences(&v, &start, SEQUENCES_LISTED).unwrap();
        assert_eq!(every, v.legal_moves(&start));
        assert_eq!(
            move_sequences(&v, &start, every.len()).unwrap().len(),
            every.len(),
            "exactly `most` is not too many"
        );
        assert!(move_sequences(&v, &start, every.len() - 1).is_err());
    }

    #[test]
    fn a_strict_limit_gives_up_on_a_pit_whose_moves_all_loop() {
        let mut rules = crate::Rules::load("igisoro").unwrap();
        rules.capture_sow_from = crate::SowOrigin::CapturePit;
        let v = Variant::new(rules).unwrap();
        // Pit 13's sequences all come back to a turning point: listing it exactly
        // explores every point (about 0.4 s); a strict limit stops at the limit.
        let board = v
            .parse_position("13,1,0,1,2,1,2,3/14,7,2,3,2,0,1,6/1,1,0,0,1,0,0,0/0,1,0,0,1,1,0,0 N")
            .unwrap();
        let mut gen = move_generator().strict();
        let mut found = 0;
        v.visit_moves(&board, 1 << 12, Listing::Results, &mut gen, |_| found += 1);
        assert_eq!(found, 0);
        assert!(gen.truncated(), "the pit was cut, not found moveless");
        assert!(v.has_legal_move(&board, &mut gen), "other pits move");
    }

    /// A position of `igisoro-clockwise` met in a game between two weak levels, with a
    /// result of pit 10 that the search reached by walking the pit's choices and that
    /// the shared list leaves out. (Naming such results by exact listings once took a
    /// tournament of levels past 24 GB.)
    fn vast_pit_and_deep_result() -> (Variant, Board, Board) {
        let v = Variant::load("igisoro-clockwise").unwrap();
        let board = v
            .parse_position("1,1,1,1,2,1,6,1/1,0,0,1,1,1,1,1/6,0,1,2,1,4,1,2/1,0,6,5,1,6,5,3 S")
            .unwrap();
        let child = v
            .parse_position("0,1,1,0,2,0,0,0/0,0,0,0,1,0,0,0/4,1,3,6,0,8,3,2/7,2,1,7,6,0,6,3 N")
            .unwrap();
        (v, board, child)
    }

    #[test]
    fn naming_a_move_of_a_vast_pit_is_bounded() {
        let (v, board, child) = vast_pit_and_deep_result();
        let named = listed_move(&v, &board, 1 << 9, &child).expect("named");
        assert_eq!(v.play_move(&board, &named).unwrap().child, child);
        // Its listing explores more than 65,536 turning points before it meets the
        // result: a bound below that gives up.
        assert_eq!(
            listed_move_within(&v, &board, 1 << 9, &child, 1 << 16),
            None
        );
        // A result the shared list holds is named from the list.
        let (moves, truncated) = searched_moves(&v, &board);
        assert!(truncated, "the position's listing is cut");
        let listed = moves.iter().find(|m| m.mv.pit == 10).unwrap();
        let named = listed_move_within(&v, &board, 1 << 9, &listed.child, 1);
        assert_eq!(named.as_ref(), Some(&listed.mv));
    }

    #[test]
    fn dedup_keeps_the_first_of_each_position_in_order() {
        let v = Variant::load("isolo-women").unwrap();
        let (a, b, c) = (
            v.start(),
            v.legal_moves(&v.start())[0].child,
            v.legal_moves(&v.start())[1].child,
        );
        for len in [5, 100] {
            let mut list: Vec<(usize, Board)> =
                (0..len).map(|i| (i, [a, b, a, c, b][i % 5])).collect();
            dedup_by_position(&mut list, |e| &e.1);
            let kept: Vec<usize> = list.iter().map(|e| e.0).collect();
            assert_eq!(kept, [0, 1, 3]);
        }
    }
}

//! An engine's answer to a capture the mover passed under the retreat (RULES.md 3.4),
//! asked in the middle of the mover's move: for a player who answers while the other
//! moves (the web page against the engine).
//!
//! The answer is chosen by minimax over the rest of the move, walked a choice at a time
//! (`Variant::begin_move`): the mover's later choices at their best for the mover, the
//! answerer's later answers at their best for it, and each position the move can end
//! in searched for the answerer, who is to move there.

use isolo_rules::{Board, Choice, ChoicePoint, Move, MoveGen, MoveStep, MoveWalk, Variant};

use super::{loss_in, Limits, SearchRequest, Searcher, INFINITY};

/// Most positions the rest of a move may reach for each of them to be searched; past
/// it they are evaluated by a search of one ply each.
pub const MOST_SEARCHED_ENDS: usize = 64;

/// Why no answer was chosen.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AnswerError {
    /// The move does not stop at an answer: it ends, needs another choice first, or is
    /// not legal.
    #[error("move '{0}' does not stop where the opponent answers a pass")]
    NotAnAnswer(String),
}

/// The answer (`Choice::Retreat` or `Choice::Stay`) that leaves the mover least, for the
/// move begun as `partial` from `board` (it must stop at an answer), each position the
/// move can end in searched by `searcher` within `limits` (with `history`, the game's
/// positions before `board`, for repetitions).
pub fn best_answer(
    searcher: &mut dyn Searcher,
    variant: &Variant,
    board: &Board,
    history: &[u64],
    partial: &Move,
    limits: Limits,
) -> Result<Choice, AnswerError> {
    let mut walk = MoveWalk::new();
    let point = match variant.walk_choices(board, partial, &mut walk) {
        Some(MoveStep::Answer(point)) => point,
        _ => return Err(AnswerError::NotAnAnswer(partial.to_string())),
    };
    let mut ends = Vec::new();
    collect_ends(variant, &point, &mut walk, &mut ends);
    ends.sort_by_key(Board::hash);
    ends.dedup();
    let depth_one = Limits {
        depth: Some(1),
        ..Limits::default()
    };
    // A time limit is the whole answer's, shared among the ends.
    let shared = Limits {
        time: limits.time.map(|t| t / ends.len().max(1) as u32),
        soft_time: None,
        ..limits
    };
    let each = if ends.len() > MOST_SEARCHED_ENDS {
        depth_one
    } else {
        shared
    };
    let mut history = history.to_vec();
    history.push(board.hash());
    // Each end searched once, in the order of their hashes (for the lookups below).
    let values: Vec<i32> = ends
        .iter()
        .map(|end| end_value(searcher, variant, &history, each, end))
        .collect();
    let value_of = |child: &Board| {
        let at = ends.binary_search_by_key(&child.hash(), Board::hash);
        values[at.expect("every end was collected")]
    };
    let mut best = (Choice::Stay, -INFINITY);
    for retreat in [true, false] {
        let step = variant.answer_pass(&point, retreat, &mut walk);
        if let Some(value) = walked_value(variant, step, &mut walk, &value_of) {
            if value > best.1 {
                best = (Choice::answer(retreat), value);
            }
        }
    }
    Ok(best.0)
}

/// Every position the rest of the move from `point` can end in.
fn collect_ends(variant: &Variant, point: &ChoicePoint, walk: &mut MoveWalk, out: &mut Vec<Board>) {
    for first in [true, false] {
        match variant.choose(point, first, walk) {
            MoveStep::End { child, .. } => out.push(child),
            MoveStep::Dead { .. } => {}
            MoveStep::Choice(next) | MoveStep::Answer(next) => {
                collect_ends(variant, &next, walk, out)
            }
        }
    }
}

/// The answerer's value of where a walk stands (`None`: no move goes this way), the
/// positions the move ends in valued by `value_of`: the mover's choices at their worst
/// for the answerer, its own answers at their best.
fn walked_value(
    variant: &Variant,
    step: MoveStep,
    walk: &mut MoveWalk,
    value_of: &impl Fn(&Board) -> i32,
) -> Option<i32> {
    let (point, answerer_decides) = match step {
        MoveStep::Dead { .. } => return None,
        MoveStep::End { child, .. } => return Some(value_of(&child)),
        MoveStep::Choice(point) => (point, false),
        MoveStep::Answer(point) => (point, true),
    };
    let mut found: Option<i32> = None;
    for first in [true, false] {
        let next = variant.choose(&point, first, walk);
        if let Some(value) = walked_value(variant, next, walk, value_of) {
            found = Some(match found {
                Some(v) if answerer_decides => v.max(value),
                Some(v) => v.min(value),
                None => value,
            });
        }
    }
    found
}

/// The value of a position the move ends in, for the answerer (to move there).
fn end_value(
    searcher: &mut dyn Searcher,
    variant: &Variant,
    history: &[u64],
    limits: Limits,
    child: &Board,
) -> i32 {
    let over = child.ends_captured() || !variant.has_legal_move(child, &mut MoveGen::new());
    if over {
        return loss_in(0);
    }
    let request = SearchRequest {
        variant,
        board: *child,
        history: history.to_vec(),
        limits,
        multipv: 1,
        stop: None,
    };
    let result = searcher.search(&request, &mut |_| {});
    result.best().map_or(loss_in(0), |line| line.score.value())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::alphabeta::{AlphaBeta, AlphaBetaConfig};

    /// Along a random game, every move stopped at an answer gets one, the same again
    /// when asked again, and a whole move is refused.
    #[test]
    fn an_answer_is_chosen_where_a_move_stops_for_one() {
        let rules = isolo_rules::Rules::from_toml(
            "name = \"r\"\nbase = \"igisoro\"\nretreat = \"front-to-back\"\n",
            "r",
        )
        .unwrap();
        let variant = Variant::new(rules).unwrap();
        let mut searcher = AlphaBeta::new(AlphaBetaConfig {
            threads: 1,
            hash_mb: 4,
            ..AlphaBetaConfig::default()
        })
        .unwrap();
        let limits = Limits {
            depth: Some(3),
            ..Limits::default()
        };
        let mut board = variant.start();
        let mut checked = 0;
        for ply in 0..200 {
            let moves = variant.legal_moves(&board);
            if moves.is_empty() {
                break;
            }
            for m in moves
                .iter()
                .filter(|m| m.mv.choices.contains(&Choice::Retreat))
            {
                let at =
                    m.mv.choices
                        .iter()
                        .position(|&c| c == Choice::Retreat)
                        .unwrap();
                let partial = Move {
                    pit: m.mv.pit,
                    choices: m.mv.choices[..at].to_vec(),
                };
                let answer =
                    best_answer(&mut searcher, &variant, &board, &[], &partial, limits).unwrap();
                assert!(answer.is_answer());
                let again = best_answer(&mut searcher, &variant, &board, &[], &partial, limits);
                assert_eq!(again, Ok(answer), "{partial}");
                checked += 1;
            }
            let played = &moves[ply * 7 % moves.len()];
            assert_eq!(
                best_answer(&mut searcher, &variant, &board, &[], &played.mv, limits),
                Err(AnswerError::NotAnAnswer(played.mv.to_string())),
                "a whole move"
            );
            board = played.child;
            if checked > 5 {
                break;
            }
        }
        assert!(checked > 5, "{checked} answers");
    }
}

//! Moves half made under the retreat (RULES.md 3.4): the opponent answers a pass in
//! the middle of the mover's move, so a move is decided by both sides in turn. Here an
//! engine completes a move begun as `partial`, whichever side decides next: the
//! answerer's answer or the mover's letters after an answer it did not expect
//! (`complete_move`, for matches and UGI; `settle_answers` settles a whole move's
//! answers side by side).
//!
//! A completion is minimax over the rest of the move, walked a choice at a time
//! (`Variant::half_made`): the mover's choices at their best for the mover, the
//! answerer's answers at their best for it, and each position the move can end in
//! valued for the answerer, who is to move there (by a search, or by a bot's own
//! measure).

use std::sync::atomic::AtomicBool;

#[cfg(test)]
use isolo_rules::Choice;
use isolo_rules::{Board, ChoicePoint, Completion, Move, MoveGen, MoveStep, MoveWalk, Variant};
use rand::Rng;

use super::{loss_in, Limits, Past, Score, SearchRequest, Searcher};

/// Most positions the rest of a move may reach for each of them to be searched; past
/// it they are evaluated by a search of one ply each.
pub const MOST_SEARCHED_ENDS: usize = 64;

/// Most steps (options taken) a completion may walk to weigh every way the rest of a
/// move can go; a long relay with many choices has exponentially many. Past it, each
/// decision compares the first legal completion of each of its options instead.
pub const MOST_WALKED_STEPS: usize = 4096;

/// Why a half-made move was not completed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AnswerError {
    /// The move does not stop at an answer: it ends, needs another choice first, or is
    /// not legal.
    #[error("move '{0}' does not stop where the opponent answers a pass")]
    NotAnAnswer(String),
    /// The move is whole, not legal, or the rules have no retreat: nothing is left to
    /// decide in it.
    #[error("move '{0}' is not a move half made under the retreat")]
    NotHalfMade(String),
}

/// The answer (`Choice::Retreat` or `Choice::Stay`) that leaves the mover least (the
/// tests' view of `complete_move` from the answerer's side), for the
/// move begun as `partial` from `board` (it must stop at an answer), each position the
/// move can end in searched by `searcher` within `limits` (with `history`, the game's
/// positions before `board`, for repetitions).
#[cfg(test)]
pub(crate) fn best_answer(
    searcher: &mut dyn Searcher,
    variant: &Variant,
    board: &Board,
    history: &[u64],
    partial: &Move,
    limits: Limits,
) -> Result<Choice, AnswerError> {
    stops_at_answer(variant, board, partial)?;
    let past = Past {
        hashes: history,
        quiet_plies: 0,
    };
    let whole = complete_move(searcher, variant, board, past, partial, limits, None)?;
    Ok(whole.choices[partial.choices.len()])
}

/// Whether `partial`, from `board`, stops where the opponent answers a pass.
pub(crate) fn stops_at_answer(
    variant: &Variant,
    board: &Board,
    partial: &Move,
) -> Result<(), AnswerError> {
    match variant.half_made(board, partial, &mut MoveWalk::new()) {
        Some(MoveStep::Answer(_)) => Ok(()),
        _ => Err(AnswerError::NotAnAnswer(partial.to_string())),
    }
}

/// The whole move that `partial`, half made from `board`, becomes when both sides
/// decide the rest at their best: each position it can end in searched by `searcher`
/// within `limits` (a time limit shared among them; past `MOST_SEARCHED_ENDS` of them a
/// search of one ply each, and each stopped once `stop` is set), with `past` (the game
/// before `board`) for repetitions and the long-game rule. Past `MOST_WALKED_STEPS`,
/// each decision searches one ply from the first completion of each option.
pub(crate) fn complete_move(
    searcher: &mut dyn Searcher,
    variant: &Variant,
    board: &Board,
    past: Past,
    partial: &Move,
    limits: Limits,
    stop: Option<&AtomicBool>,
) -> Result<Move, AnswerError> {
    let search = EndSearch {
        searcher,
        past,
        limits,
        stop,
    };
    complete_move_picking(variant, board, partial, search, &mut |a, b| a >= b)
}

/// How the ends of a move half made are searched: by whom, with which earlier
/// positions and limits, and until which stop flag is raised.
pub struct EndSearch<'a> {
    /// The searcher.
    pub searcher: &'a mut dyn Searcher,
    /// The game before the move's position: the earlier positions (repetitions) and the
    /// plies without a capture (the long-game rule).
    pub past: Past<'a>,
    /// The limits of the whole completion (a time limit is shared among the ends).
    pub limits: Limits,
    /// Stops each end's search once set.
    pub stop: Option<&'a AtomicBool>,
}

/// `complete_move`, the side that decides next in `partial` taking each of its own
/// decisions by `own_pick(first, second)`, its values of the two options (whether it
/// takes the first): `a >= b` is its best, a weaker player may draw. The other side's
/// decisions in the rest are taken at their best.
pub(crate) fn complete_move_picking(
    variant: &Variant,
    board: &Board,
    partial: &Move,
    search: EndSearch,
    own_pick: &mut dyn FnMut(i32, i32) -> bool,
) -> Result<Move, AnswerError> {
    let EndSearch {
        searcher,
        past,
        limits,
        stop,
    } = search;
    let before = (board, past.quiet_plies);
    let mut walk = MoveWalk::new();
    let step = half_made(variant, board, partial, &mut walk)?;
    let mut pick = picker(matches!(step, MoveStep::Answer(_)), own_pick);
    let mut history = past.hashes.to_vec();
    history.push(board.hash());
    let depth_one = Limits {
        depth: Some(1),
        ..Limits::default()
    };
    let mut ends = Vec::new();
    let mut steps = MOST_WALKED_STEPS;
    if !collect_ends(variant, step, &mut walk, &mut ends, &mut steps) {
        let mut value_of =
            |end: &Board| end_value(searcher, variant, (&history, before), depth_one, stop, end);
        return Ok(follow_first_completions(
            variant,
            partial,
            step,
            &mut walk,
            &mut value_of,
            &mut pick,
        ));
    }
    ends.sort_by_key(Board::hash);
    ends.dedup();
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
    // Each end searched once, in the order of their hashes (for the lookups below).
    let values: Vec<i32> = ends
        .iter()
        .map(|end| end_value(searcher, variant, (&history, before), each, stop, end))
        .collect();
    let value_of = |child: &Board| {
        let at = ends.binary_search_by_key(&child.hash(), Board::hash);
        values[at.expect("every end was collected")]
    };
    Ok(follow_minimax(
        variant, partial, step, &mut walk, &value_of, &mut pick,
    ))
}

/// A decision at a point, from the answerer's values of its two options: the side
/// that decides first (the answerer if `answerer_first`) by `own_pick`, the other side
/// at its best; each side's pick reads its own values.
fn picker<'a>(
    answerer_first: bool,
    own_pick: &'a mut dyn FnMut(i32, i32) -> bool,
) -> impl FnMut(&ChoicePoint, i32, i32) -> bool + 'a {
    move |point, a, b| {
        let (a, b) = if point.passed() { (a, b) } else { (-a, -b) };
        if point.passed() == answerer_first {
            own_pick(a, b)
        } else {
            a >= b
        }
    }
}

/// The decisions at their best for the side taking each, from the answerer's values:
/// its highest at an answer, the mover's lowest for the answerer elsewhere.
fn best_pick(point: &ChoicePoint, a: i32, b: i32) -> bool {
    if point.passed() {
        a >= b
    } else {
        a <= b
    }
}

/// `partial` completed by minimax with `value_of` valuing the positions the move can end
/// in for the answerer (the side to move there): the greedy bot's completion, with the
/// answerer's seeds as the value. Past `MOST_WALKED_STEPS`, each decision compares the
/// first completion of each option.
pub(crate) fn complete_move_by(
    variant: &Variant,
    board: &Board,
    partial: &Move,
    value_of: &impl Fn(&Board) -> i32,
) -> Result<Move, AnswerError> {
    complete_within(variant, board, partial, value_of, MOST_WALKED_STEPS)
}

/// `complete_move_by` walking at most `most_steps` steps for the exact completion.
fn complete_within(
    variant: &Variant,
    board: &Board,
    partial: &Move,
    value_of: &impl Fn(&Board) -> i32,
    most_steps: usize,
) -> Result<Move, AnswerError> {
    let mut walk = MoveWalk::new();
    let step = half_made(variant, board, partial, &mut walk)?;
    let (mut ends, mut steps) = (Vec::new(), most_steps);
    let mut pick = best_pick;
    if collect_ends(variant, step, &mut walk, &mut ends, &mut steps) {
        Ok(follow_minimax(
            variant, partial, step, &mut walk, value_of, &mut pick,
        ))
    } else {
        let mut value_of = |end: &Board| value_of(end);
        Ok(follow_first_completions(
            variant,
            partial,
            step,
            &mut walk,
            &mut value_of,
            &mut pick,
        ))
    }
}

/// `partial` completed by options drawn at random from `rng` among those a legal move
/// follows: the random bot's completion.
pub(crate) fn complete_move_at_random(
    variant: &Variant,
    board: &Board,
    partial: &Move,
    rng: &mut impl Rng,
) -> Result<Move, AnswerError> {
    let mut walk = MoveWalk::new();
    let step = half_made(variant, board, partial, &mut walk)?;
    Ok(follow(
        variant,
        partial,
        step,
        &mut walk,
        &mut |point, walk| match variant.option_completions(point, walk, usize::MAX) {
            [Completion::Found(..), Completion::Found(..)] => rng.random_bool(0.5),
            [first, _] => matches!(first, Completion::Found(..)),
        },
    ))
}

/// `plan`, a whole move from `board` whose answers are the mover's expectations, as the
/// sides settle it: `complete(partial, answering)` gives the whole move that the move
/// half made `partial` becomes as the side deciding next makes it (the answerer at each
/// answer, `answering`; the mover after an answer its plan did not expect). Matches ask
/// each player; self-play asks its one engine for both sides.
pub fn settle_answers<E>(
    variant: &Variant,
    board: &Board,
    mut plan: Move,
    complete: &mut dyn FnMut(&Move, bool) -> Result<Move, E>,
) -> Result<Move, E> {
    let mut settled = 0;
    while let Some(at) = (plan.choices.iter().skip(settled))
        .position(|c| c.is_answer())
        .map(|i| i + settled)
    {
        settled = at + 1;
        let mut partial = Move {
            pit: plan.pit,
            choices: plan.choices[..at].to_vec(),
        };
        let answer = complete(&partial, true)?.choices[at];
        if answer == plan.choices[at] {
            continue;
        }
        partial.choices.push(answer);
        plan = if variant.play_move(board, &partial).is_some() {
            partial
        } else {
            complete(&partial, false)?
        };
    }
    Ok(plan)
}

/// Where `partial` stops, or why it is no move half made.
fn half_made(
    variant: &Variant,
    board: &Board,
    partial: &Move,
    walk: &mut MoveWalk,
) -> Result<MoveStep, AnswerError> {
    variant
        .half_made(board, partial, walk)
        .ok_or_else(|| AnswerError::NotHalfMade(partial.to_string()))
}

/// A decision at a point from the answerer's values of its two options: whether the
/// first is taken.
type Pick<'a> = dyn FnMut(&ChoicePoint, i32, i32) -> bool + 'a;

/// `partial` completed from `step` by minimax over every way the rest can go, the ends
/// valued by `value_of` for the answerer, each decision taken by `pick`.
fn follow_minimax(
    variant: &Variant,
    partial: &Move,
    step: MoveStep,
    walk: &mut MoveWalk,
    value_of: &impl Fn(&Board) -> i32,
    pick: &mut Pick,
) -> Move {
    follow(variant, partial, step, walk, &mut |point, walk| {
        let [first, second] = option_values(variant, point, walk, value_of);
        decide(point, first, second, pick)
    })
}

/// `partial` completed from `step`, each decision taken by the value (from `value_of`,
/// for the answerer) of the first legal completion of each option.
fn follow_first_completions(
    variant: &Variant,
    partial: &Move,
    step: MoveStep,
    walk: &mut MoveWalk,
    value_of: &mut dyn FnMut(&Board) -> i32,
    pick: &mut Pick,
) -> Move {
    follow(variant, partial, step, walk, &mut |point, walk| {
        let [first, second] =
            variant
                .option_completions(point, walk, usize::MAX)
                .map(|c| match c {
                    Completion::Found(_, end) => Some(value_of(&end)),
                    Completion::None | Completion::Unknown => None,
                });
        decide(point, first, second, pick)
    })
}

/// Whether the first option at `point` is taken, given the answerer's values of both
/// (`None`: no legal move that way): by `pick` where both lead on.
fn decide(point: &ChoicePoint, first: Option<i32>, second: Option<i32>, pick: &mut Pick) -> bool {
    match (first, second) {
        (Some(a), Some(b)) => pick(point, a, b),
        (found, _) => found.is_some(),
    }
}

/// The move `partial` becomes from `step` on, `first_of` deciding each choice (whether
/// the first option is taken; it takes only options a legal move follows).
fn follow(
    variant: &Variant,
    partial: &Move,
    mut step: MoveStep,
    walk: &mut MoveWalk,
    first_of: &mut dyn FnMut(&ChoicePoint, &mut MoveWalk) -> bool,
) -> Move {
    let mut whole = partial.clone();
    loop {
        match step {
            MoveStep::End { .. } => return whole,
            MoveStep::Dead { .. } => unreachable!("only options a legal move follows are taken"),
            MoveStep::Choice(point) | MoveStep::Answer(point) => {
                let first = first_of(&point, walk);
                whole.choices.push(point.option(first));
                step = variant.choose(&point, first, walk);
            }
        }
    }
}

/// The answerer's values of the two options at `point` (`None`: no legal move).
fn option_values(
    variant: &Variant,
    point: &ChoicePoint,
    walk: &mut MoveWalk,
    value_of: &impl Fn(&Board) -> i32,
) -> [Option<i32>; 2] {
    [true, false].map(|first| {
        let next = variant.choose(point, first, walk);
        walked_value(variant, next, walk, value_of)
    })
}

/// Every position the rest of the move from `step` can end in, into `out`, each option
/// taken counted off `steps_left`: `false` (and `out` partial) once they run out.
fn collect_ends(
    variant: &Variant,
    step: MoveStep,
    walk: &mut MoveWalk,
    out: &mut Vec<Board>,
    steps_left: &mut usize,
) -> bool {
    match step {
        MoveStep::End { child, .. } => out.push(child),
        MoveStep::Dead { .. } => {}
        MoveStep::Choice(point) | MoveStep::Answer(point) => {
            for first in [true, false] {
                let Some(left) = steps_left.checked_sub(1) else {
                    return false;
                };
                *steps_left = left;
                let next = variant.choose(&point, first, walk);
                if !collect_ends(variant, next, walk, out, steps_left) {
                    return false;
                }
            }
        }
    }
    true
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
    let [first, second] = option_values(variant, &point, walk, value_of);
    match (first, second) {
        (Some(a), Some(b)) if answerer_decides => Some(a.max(b)),
        (Some(a), Some(b)) => Some(a.min(b)),
        (found, other) => found.or(other),
    }
}

/// The value of a position the move ends in, for the answerer (to move there): searched
/// with `history` (the positions up to the move's) and the plies without a capture
/// after it, from the move's position `before` and its count.
fn end_value(
    searcher: &mut dyn Searcher,
    variant: &Variant,
    (history, before): (&[u64], (&Board, u32)),
    limits: Limits,
    stop: Option<&AtomicBool>,
    child: &Board,
) -> i32 {
    let over = child.ends_captured() || !variant.has_legal_move(child, &mut MoveGen::new());
    if over {
        return loss_in(0);
    }
    let quiet_plies = isolo_rules::quiet_plies_after(before.0, child, before.1);
    if let Some(end) = isolo_rules::long_game_outcome(variant, child, quiet_plies) {
        return Score::at_end(end.for_side(child.to_move())).value();
    }
    let request = SearchRequest {
        variant,
        board: *child,
        history: history.to_vec(),
        quiet_plies,
        limits,
        multipv: 1,
        pv_lines: usize::MAX,
        stop,
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
        let mut rng = <rand::rngs::SmallRng as rand::SeedableRng>::seed_from_u64(5);
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
                // Either answer, the mover's rest of the move: a legal whole move.
                for given in [Choice::Retreat, Choice::Stay] {
                    let mut answered = partial.clone();
                    answered.choices.push(given);
                    let completions = [
                        complete_move(
                            &mut searcher,
                            &variant,
                            &board,
                            Past::default(),
                            &answered,
                            limits,
                            None,
                        ),
                        complete_move_by(&variant, &board, &answered, &|b: &Board| {
                            b.side_total(b.to_move()) as i32
                        }),
                        complete_move_at_random(&variant, &board, &answered, &mut rng),
                        // Past the walk's budget: the first completions compared.
                        complete_within(&variant, &board, &answered, &|_| 0, 0),
                    ];
                    for whole in completions {
                        let Ok(whole) = whole else {
                            // No legal move follows that answer, or nothing is left.
                            assert!(
                                variant.play_move(&board, &answered).is_some()
                                    || !moves.iter().any(|m| m
                                        .mv
                                        .choices
                                        .starts_with(&answered.choices)
                                        && m.mv.pit == answered.pit),
                                "{answered}"
                            );
                            continue;
                        };
                        assert!(whole.choices.starts_with(&answered.choices), "{whole}");
                        assert!(variant.play_move(&board, &whole).is_some(), "{whole}");
                    }
                }
                // The whole move as the answering side settles it: still a legal move.
                let mut at_random = |half: &Move, _answering: bool| {
                    complete_move_at_random(&variant, &board, half, &mut rng)
                };
                let settled = settle_answers(&variant, &board, m.mv.clone(), &mut at_random);
                let settled = settled.expect("a prefix of a legal move is half made");
                assert!(variant.play_move(&board, &settled).is_some(), "{settled}");
                checked += 1;
            }
            let played = &moves[ply * 7 % moves.len()];
            assert_eq!(
                best_answer(&mut searcher, &variant, &board, &[], &played.mv, limits),
                Err(AnswerError::NotAnAnswer(played.mv.to_string())),
                "a whole move"
            );
            assert_eq!(
                complete_move_at_random(&variant, &board, &played.mv, &mut rng),
                Err(AnswerError::NotHalfMade(played.mv.to_string())),
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

//! Strategies under the retreat (RULES.md 3.4): the opponent answers the mover's passes
//! inside the move, so a side's strategy at a position is not one move but a decision
//! at each of its decision points in the moves played there (its own choices where it
//! moves, its answers where the other side does), whatever the other side decides.
//!
//! A certificate writes them as position lines, a position maybe on several: each line
//! is a sequence of letters (a move, or a move half made), and the side's decision
//! after a sequence of letters is the letter that follows it on the position's lines
//! (one letter: lines that disagree are refused). A winner's position has a line for
//! each move its strategy may end up playing, one per answer the loser may give; a
//! loser's position has a line for each of the winner's answers its moves meet (the
//! loser's letters up to the answer, then the answer).

use isolo_rules::{Board, Choice, Move, MoveStep, MoveWalk, Side, Variant};

/// Walks `board`'s moves with `side` deciding as `lines` say and its opponent every way
/// it may: the positions they end in (with repeats), or why the lines are no strategy
/// (a decision they do not give, or give two ways, an option that is not one, or a
/// move of theirs that cannot end).
pub(super) fn results_under(
    variant: &Variant,
    board: &Board,
    side: Side,
    lines: &[&Move],
) -> Result<Vec<Board>, String> {
    let walker = Walker {
        variant,
        board,
        side_moves: board.to_move() == side,
        lines,
    };
    let mut ends = Vec::new();
    let mut walk = MoveWalk::new();
    let mut pits = variant.candidate_pits(board);
    if walker.side_moves {
        let pit = walker.given_pit()?;
        if pits >> (pit - 1) & 1 == 0 {
            return Err(format!("{}: pit {pit} cannot start a move", walker.text()));
        }
        pits = 1 << (pit - 1);
    }
    while pits != 0 {
        let pit = pits.trailing_zeros() as u8 + 1;
        pits &= pits - 1;
        let mut prefix = Move::pit(pit);
        let step = variant.begin_move(board, pit, &mut walk);
        let live = walker.walk(step, &mut prefix, &mut walk, &mut ends)?;
        if walker.side_moves && !live {
            return Err(format!("{}: the move {pit} cannot end", walker.text()));
        }
    }
    Ok(ends)
}

struct Walker<'a> {
    variant: &'a Variant,
    board: &'a Board,
    /// Whether the side whose strategy the lines give is the mover.
    side_moves: bool,
    lines: &'a [&'a Move],
}

impl Walker<'_> {
    fn text(&self) -> String {
        format!("at {}", self.variant.format_position(self.board))
    }

    /// The pit the lines start with.
    fn given_pit(&self) -> Result<u8, String> {
        let mut pits = self.lines.iter().map(|m| m.pit);
        let Some(pit) = pits.next() else {
            return Err(format!("no move is given {}", self.text()));
        };
        if pits.any(|p| p != pit) {
            return Err(format!("{}: the lines start from two pits", self.text()));
        }
        Ok(pit)
    }

    /// The letter the lines give after `prefix`.
    fn given_letter(&self, prefix: &Move) -> Result<Choice, String> {
        let k = prefix.choices.len();
        let mut letters = self
            .lines
            .iter()
            .filter(|m| m.pit == prefix.pit && m.choices.len() > k)
            .filter(|m| m.choices[..k] == prefix.choices[..])
            .map(|m| m.choices[k]);
        let Some(letter) = letters.next() else {
            return Err(format!(
                "{}: no decision is given after {prefix}",
                self.text()
            ));
        };
        if letters.any(|l| l != letter) {
            return Err(format!(
                "{}: the lines decide two ways after {prefix}",
                self.text()
            ));
        }
        Ok(letter)
    }

    /// Walks on from `step` (reached by the letters `prefix`): whether some move ends
    /// this way, each end pushed on `ends`.
    fn walk(
        &self,
        step: MoveStep,
        prefix: &mut Move,
        walk: &mut MoveWalk,
        ends: &mut Vec<Board>,
    ) -> Result<bool, String> {
        let (point, answer) = match step {
            MoveStep::End { child, .. } => {
                ends.push(child);
                return Ok(true);
            }
            MoveStep::Dead { .. } => return Ok(false),
            MoveStep::Choice(point) => (point, false),
            MoveStep::Answer(point) => (point, true),
        };
        let options: Vec<bool> = if self.side_moves != answer {
            // The side decides, where a move can still end at all (an option that
            // cannot is not the other side's to give it).
            let mut probe = MoveWalk::new();
            let whole = self.variant.walk_choices(self.board, prefix, &mut probe);
            let live = match whole {
                Some(MoveStep::Choice(p) | MoveStep::Answer(p)) => matches!(
                    self.variant.first_completion(&p, &mut probe, usize::MAX),
                    isolo_rules::Completion::Found(..)
                ),
                _ => false,
            };
            if !live {
                return Ok(false);
            }
            let letter = self.given_letter(prefix)?;
            let first = match letter {
                _ if letter == point.option(true) => true,
                _ if letter == point.option(false) => false,
                _ => {
                    return Err(format!(
                        "{}: {} after {prefix} is not an option there",
                        self.text(),
                        letter.letter()
                    ))
                }
            };
            vec![first]
        } else {
            vec![true, false]
        };
        let mut live = false;
        for &first in &options {
            prefix.choices.push(point.option(first));
            let next = self.variant.choose(&point, first, walk);
            let this = self.walk(next, prefix, walk, ends)?;
            if options.len() == 1 && !this {
                return Err(format!(
                    "{}: the move given, {prefix}, cannot end",
                    self.text()
                ));
            }
            prefix.choices.pop();
            live |= this;
        }
        Ok(live)
    }
}
